/**
 * Transfer lists for a worker's results: a buffer can be transferred once, and two files may
 * share one (subarrays of one buffer) — such a list would make postMessage throw and lose the
 * result. The first holder moves the buffer; the others' bytes are copied with the message.
 */
export function uniqueBuffers(): (b: ArrayBuffer) => boolean {
  const seen = new Set<ArrayBuffer>();
  return (b) => (seen.has(b) ? false : (seen.add(b), true));
}
