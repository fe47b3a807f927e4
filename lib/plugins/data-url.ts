/** A JavaScript module as a data: URL, to import source text (a plugin file) without a server. */
import { bytesToBase64 } from "../encoding/base64";

export function moduleDataUrl(source: string): string {
  return `data:text/javascript;base64,${bytesToBase64(new TextEncoder().encode(source))}`;
}
