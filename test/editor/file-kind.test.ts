import { describe, expect, it } from "vitest";
import { classifyFile, looksBinary, LARGE_FILE_BYTES, LARGE_FILE_PREVIEW_BYTES, formatBytes } from "../../lib/editor/file-kind";

describe("file kinds", () => {
  it("text stays editable text, including multi-byte UTF-8", () => {
    const k = classifyFile(new TextEncoder().encode("héllo ✓\n"));
    expect(k).toEqual({ kind: "text", text: "héllo ✓\n" });
  });

  it("a NUL byte or invalid UTF-8 means binary, with a hex preview", () => {
    expect(looksBinary(new Uint8Array([104, 0, 105]))).toBe(true);
    expect(looksBinary(new Uint8Array([0xff, 0xfe, 0x41]))).toBe(true);
    const k = classifyFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 1]));
    expect(k.kind).toBe("binary");
    if (k.kind === "binary") expect(k.hexPreview).toContain("89 50 4e 47 00 01");
  });

  it("a multi-byte character cut at the sniff boundary is not mistaken for binary", () => {
    const text = "a".repeat(7999) + "é".repeat(10);
    expect(looksBinary(new TextEncoder().encode(text))).toBe(false);
  });

  it("files over 5 MB are previewed read-only, not loaded whole", () => {
    const big = new Uint8Array(LARGE_FILE_BYTES + 10).fill(97);
    const k = classifyFile(big);
    expect(k.kind).toBe("large");
    if (k.kind === "large") expect(k.text.length).toBe(LARGE_FILE_PREVIEW_BYTES);
    expect(formatBytes(big.length)).toBe("5.0 MB");
  });
});
