/** git's rule for binary content: a NUL byte in the first 8000 bytes. No dependency, so any module (and the benches' bundles) can use it. */
const BINARY_SNIFF_BYTES = 8000;

export function looksBinary(bytes: Uint8Array): boolean {
  const n = Math.min(bytes.length, BINARY_SNIFF_BYTES);
  for (let i = 0; i < n; i++) if (bytes[i] === 0) return true;
  return false;
}
