/**
 * Images sent with a prompt (a screenshot pasted, dropped or attached): checked here before they
 * enter the conversation — the type is read from the bytes, not from a file name or a browser's
 * guess; each image and each message has a size cap the providers accept — and sent to the model
 * as the AI SDK's file parts. They are stored with the session (base64) and shown in the
 * transcript; share links leave them out unless the user ticks them (lib/share).
 */
import type { LanguageModelV4FilePart } from "@ai-sdk/provider";

export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

export type ImageAttachment = {
  mediaType: ImageMediaType;
  /** The bytes, base64-encoded. */
  data: string;
  /** Size of the bytes. */
  bytes: number;
  /** The file's name, when it had one (shown, never trusted for the type). */
  name?: string;
};

/** Anthropic's limit per image; OpenAI's is larger. */
export const MAX_IMAGE_BYTES = 5 * 1024 * 1024;
export const MAX_IMAGES_PER_MESSAGE = 8;
/** What one image costs in the context, for estimates (about Anthropic's figure for a 1 MP image). */
export const IMAGE_TOKEN_ESTIMATE = 1_600;

export class ImageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ImageError";
  }
}

/** The image type of `bytes` from its signature, or undefined for anything else. */
export function sniffImageType(bytes: Uint8Array): ImageMediaType | undefined {
  const at = (i: number, ...sig: number[]) => sig.every((b, k) => bytes[i + k] === b);
  if (at(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (at(0, 0xff, 0xd8, 0xff)) return "image/jpeg";
  if (at(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61) return "image/gif";
  if (at(0, 0x52, 0x49, 0x46, 0x46) && at(8, 0x57, 0x45, 0x42, 0x50)) return "image/webp";
  return undefined;
}

function toBase64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function label(name: string | undefined): string {
  return name ? `"${name.slice(0, 80)}"` : "The image";
}

/** The image's type when `bytes` are one the providers take; throws an ImageError saying what is wrong. */
function checkedType(bytes: Uint8Array, name: string | undefined): ImageMediaType {
  const mediaType = sniffImageType(bytes);
  if (!mediaType) throw new ImageError(`${label(name)} is not a PNG, JPEG, GIF or WebP image.`);
  if (bytes.length > MAX_IMAGE_BYTES) throw new ImageError(`${label(name)} is ${(bytes.length / 1024 / 1024).toFixed(1)} MB; an image can be at most ${MAX_IMAGE_BYTES / 1024 / 1024} MB.`);
  return mediaType;
}

function attachment(mediaType: ImageMediaType, data: string, bytes: number, name: string | undefined): ImageAttachment {
  const img: ImageAttachment = { mediaType, data, bytes };
  if (name) img.name = name.slice(0, 200);
  return img;
}

/** An attachment from a file's bytes; throws an ImageError saying what is wrong with it. */
export function imageFromBytes(bytes: Uint8Array, name?: string): ImageAttachment {
  return attachment(checkedType(bytes, name), toBase64(bytes), bytes.length, name);
}

/** The images of one message, checked again as they enter the session (they may come from anywhere). */
export function checkImages(images: readonly unknown[] | undefined): ImageAttachment[] {
  if (images === undefined) return [];
  if (!Array.isArray(images)) throw new ImageError("images must be a list");
  if (images.length > MAX_IMAGES_PER_MESSAGE) throw new ImageError(`A message can carry at most ${MAX_IMAGES_PER_MESSAGE} images; this one has ${images.length}.`);
  return images.map((raw, i) => {
    const img = raw as Partial<ImageAttachment> | null;
    if (!img || typeof img.data !== "string" || !/^[A-Za-z0-9+/]*={0,2}$/.test(img.data)) throw new ImageError(`Image ${i + 1} has no valid base64 data.`);
    let bytes: Uint8Array;
    try {
      bytes = Uint8Array.from(atob(img.data), (c) => c.charCodeAt(0));
    } catch {
      throw new ImageError(`Image ${i + 1} has no valid base64 data.`);
    }
    const name = typeof img.name === "string" ? img.name : undefined;
    return attachment(checkedType(bytes, name), img.data, bytes.length, name); // the type and size from the bytes, whatever the labels say
  });
}

/** The model's view of the images: file parts with their media type. */
export function imageParts(images: readonly ImageAttachment[]): LanguageModelV4FilePart[] {
  return images.map((img) => {
    const part: LanguageModelV4FilePart = { type: "file", mediaType: img.mediaType, data: { type: "data", data: img.data } };
    if (img.name) part.filename = img.name;
    return part;
  });
}
