"use client";
import { useEffect } from "react";
import type { WorkspaceFs } from "@/lib/fs/workspace-fs";
import type { DocumentStore } from "@/lib/editor/documents";
import { attachTypeScriptWorkspace } from "./ts-workspace";

/**
 * Renders nothing: while mounted, the workspace's TS/JS files feed Monaco's TypeScript service
 * (cross-file navigation, problems). A lazy chunk, since it brings Monaco.
 */
export default function TypeScriptWorkspace(props: { wsfs: WorkspaceFs; docs: DocumentStore }) {
  useEffect(() => {
    const handle = attachTypeScriptWorkspace(props.wsfs, props.docs);
    return () => handle.stop();
  }, [props.wsfs, props.docs]);
  return null;
}
