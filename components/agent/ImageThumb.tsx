"use client";
import { memo, useEffect, useMemo } from "react";
import type { ImageAttachment } from "@/lib/agent/images";

/**
 * An attached image. Its bytes become a blob URL once per image, not a multi-megabyte data URL
 * built on every render: the transcript re-renders on each streamed token.
 */
export const ImageThumb = memo(function ImageThumb(props: { img: ImageAttachment; alt: string; title?: string }) {
  const { img } = props;
  const url = useMemo(() => URL.createObjectURL(new Blob([Uint8Array.from(atob(img.data), (c) => c.charCodeAt(0))], { type: img.mediaType })), [img]);
  useEffect(() => () => URL.revokeObjectURL(url), [url]);
  return <img src={url} alt={props.alt} title={props.title} />;
});
