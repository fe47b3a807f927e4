/** Output capping for shell results. */

export const DEFAULT_MAX_OUTPUT_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUT_MS = 60_000;

export type ShellLimits = {
  /** Cap on stdout + stderr of one exec, in UTF-8 bytes (default 1 MB). */
  maxOutputBytes?: number;
  /** Default time limit of one exec (default 60 s). */
  timeoutMs?: number;
};

export function utf8Length(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      n += 4;
      i++;
    } else n += 3;
  }
  return n;
}

/** The longest prefix of `s` whose UTF-8 length is at most `budget` bytes. */
function prefixWithin(s: string, budget: number): string {
  let n = 0;
  let i = 0;
  for (; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const w = c < 0x80 ? 1 : c < 0x800 ? 2 : c >= 0xd800 && c <= 0xdbff ? 4 : 3;
    if (n + w > budget) break;
    n += w;
    if (w === 4) i++;
  }
  return s.slice(0, i);
}

export function truncationMarker(omittedBytes: number): string {
  return `\n[output truncated: ${omittedBytes} bytes omitted]\n`;
}

/**
 * Cut stdout/stderr so that together they stay within `max` bytes. stderr keeps at least a
 * quarter of the budget (errors matter most), stdout gets the rest; each cut stream ends with
 * a "[output truncated: N bytes omitted]" marker.
 */
export function capOutput(stdout: string, stderr: string, max: number): { stdout: string; stderr: string; truncated: boolean } {
  const outLen = utf8Length(stdout);
  const errLen = utf8Length(stderr);
  if (outLen + errLen <= max) return { stdout, stderr, truncated: false };
  const errBudget = Math.min(errLen, Math.max(Math.floor(max / 4), max - outLen));
  const outBudget = Math.max(0, max - errBudget);
  const cut = (s: string, len: number, budget: number) => {
    if (len <= budget) return s;
    const kept = prefixWithin(s, budget);
    return kept + truncationMarker(len - utf8Length(kept));
  };
  return { stdout: cut(stdout, outLen, outBudget), stderr: cut(stderr, errLen, errBudget), truncated: true };
}
