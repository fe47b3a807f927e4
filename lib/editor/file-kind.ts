/** How the editor may show a file: as editable text, or read-only with a notice. */
export const LARGE_FILE_BYTES = 5 * 1024 * 1024;
/** How much of a large text file is shown (read-only) so the tab never freezes. */
export const LARGE_FILE_PREVIEW_BYTES = 256 * 1024;
const BINARY_SNIFF_BYTES = 8000;

export type FileKind =
  | { kind: "text"; text: string }
  | { kind: "large"; text: string; size: number }
  | { kind: "binary"; size: number; hexPreview: string };

/** Same rule git uses: a NUL byte in the first 8000 bytes means binary; we also treat invalid UTF-8 as binary. */
export function looksBinary(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, BINARY_SNIFF_BYTES);
  if (head.includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(head.length < bytes.length ? trimPartialUtf8(head) : head);
    return false;
  } catch {
    return true;
  }
}

/** Drop a multi-byte sequence cut in half at the end of a sniffed prefix, so it is not mistaken for bad UTF-8. */
function trimPartialUtf8(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  for (let i = 1; i <= 3 && end - i >= 0; i++) {
    const b = bytes[end - i];
    if ((b & 0xc0) === 0xc0) return bytes.subarray(0, end - i); // lead byte of a cut sequence
    if ((b & 0xc0) !== 0x80) break;
  }
  return bytes;
}

export function hexDump(bytes: Uint8Array, limit = 4096): string {
  const lines: string[] = [];
  const end = Math.min(bytes.length, limit);
  for (let offset = 0; offset < end; offset += 16) {
    const row = bytes.subarray(offset, Math.min(offset + 16, end));
    const hex = Array.from(row, (b) => b.toString(16).padStart(2, "0")).join(" ");
    const ascii = Array.from(row, (b) => (b >= 32 && b < 127 ? String.fromCharCode(b) : ".")).join("");
    lines.push(`${offset.toString(16).padStart(8, "0")}  ${hex.padEnd(47)}  ${ascii}`);
  }
  if (bytes.length > limit) lines.push(`… ${bytes.length - limit} more bytes`);
  return lines.join("\n");
}

export function classifyFile(bytes: Uint8Array): FileKind {
  if (looksBinary(bytes)) return { kind: "binary", size: bytes.length, hexPreview: hexDump(bytes) };
  if (bytes.length > LARGE_FILE_BYTES) {
    const preview = trimPartialUtf8(bytes.subarray(0, LARGE_FILE_PREVIEW_BYTES));
    return { kind: "large", size: bytes.length, text: new TextDecoder().decode(preview) };
  }
  return { kind: "text", text: new TextDecoder().decode(bytes) };
}

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`;
  if (n < 1024 * 1024 * 1024) return `${(n / 1024 / 1024).toFixed(1)} MB`;
  return `${(n / 1024 / 1024 / 1024).toFixed(2)} GB`;
}
