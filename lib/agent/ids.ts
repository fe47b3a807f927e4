/** Ids made at call time (never at import time). Letters and digits only, so a session id is a
 * valid git ref component for refs/tabula/checkpoints/<sessionId>/<run>. */
export function randomId(bytes = 8): string {
  const buf = new Uint8Array(bytes);
  const c = (globalThis as { crypto?: { getRandomValues?(a: Uint8Array): Uint8Array } }).crypto;
  if (c?.getRandomValues) c.getRandomValues(buf);
  else for (let i = 0; i < bytes; i++) buf[i] = Math.floor(Math.random() * 256);
  let s = "";
  for (const b of buf) s += (b % 36).toString(36);
  return s;
}

export function newSessionId(now = Date.now()): string {
  return `s${now.toString(36)}${randomId(6)}`;
}

let counter = 0;
/** Short unique ids for messages, approvals and questions within a page. */
export function localId(prefix: string): string {
  counter = (counter + 1) % 1_000_000;
  return `${prefix}_${Date.now().toString(36)}${counter.toString(36)}${randomId(3)}`;
}

/** JSON with sorted keys: equal values give equal strings (the loop guard compares calls with it). */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value) ?? "null";
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(",")}]`;
  const obj = value as Record<string, unknown>;
  return `{${Object.keys(obj)
    .filter((k) => obj[k] !== undefined)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${stableStringify(obj[k])}`)
    .join(",")}}`;
}
