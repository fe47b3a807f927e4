/**
 * What the model reads of an MCP tool result. Every content type of the spec becomes text the
 * model can act on: text as is, an embedded text resource with its URI and text, a resource
 * link with its name and URI (so the model can ask for it), binary parts described by type and
 * size (their bytes would only fill the context).
 */
import type { McpCallResult, McpContent } from "./client";

function bytesOfBase64(b64: string | undefined): number {
  if (!b64) return 0;
  const pad = b64.endsWith("==") ? 2 : b64.endsWith("=") ? 1 : 0;
  return Math.max(0, Math.floor((b64.length * 3) / 4) - pad);
}

export function contentToText(c: McpContent): string {
  switch (c.type) {
    case "text":
      return c.text ?? "";
    case "resource": {
      const r = c.resource ?? {};
      const head = `Resource ${r.uri ?? "(no URI)"}${r.mimeType ? ` (${r.mimeType})` : ""}`;
      if (typeof r.text === "string") return `${head}:\n${r.text}`;
      return `${head}: binary, ${bytesOfBase64(r.blob)} bytes (not shown)`;
    }
    case "resource_link": {
      const label = c.title ?? c.name ?? c.uri ?? "resource";
      return `Resource link: ${label} <${c.uri ?? "no URI"}>${c.mimeType ? ` (${c.mimeType})` : ""}${c.description ? ` — ${c.description}` : ""}`;
    }
    case "image":
    case "audio":
      return `[${c.type} ${c.mimeType ?? ""}, ${bytesOfBase64(c.data)} bytes]`.replace(" ,", ",");
    default:
      return `[${c.type} content]`;
  }
}

/** The text of a tools/call result: its parts in order, or its structured content. */
export function resultToText(r: McpCallResult): string {
  const parts = (r.content ?? []).map(contentToText);
  if (parts.length) return parts.join("\n");
  return r.structuredContent !== undefined ? JSON.stringify(r.structuredContent) : "";
}
