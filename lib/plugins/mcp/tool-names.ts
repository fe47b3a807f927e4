/**
 * Agent-facing names for a server's tools: `mcp__<server>__<tool>`, letters, digits, _ and -,
 * at most 64 characters (the limit Anthropic and OpenAI share). Cutting at 64 alone let two long
 * names collide and one silently replace the other; a name that has to be shortened, or that
 * would collide after cleaning, ends in a short hash of the original instead, so every tool of
 * a server keeps a distinct name and the same tool always gets the same one.
 */
export const TOOL_NAME_MAX = 64;

function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

const clean = (s: string) => s.replace(/[^A-Za-z0-9_-]+/g, "_");

/** The name of one tool, ignoring its siblings (short names map to themselves, cleaned). */
export function mcpToolName(server: string, tool: string): string {
  const full = `mcp__${clean(server)}__${clean(tool)}`;
  if (full.length <= TOOL_NAME_MAX) return full;
  const suffix = `_${fnv1a(`${server}\0${tool}`)}`;
  return full.slice(0, TOOL_NAME_MAX - suffix.length) + suffix;
}

/** Distinct names for all of a server's tools: original name → agent name. */
export function mcpToolNames(server: string, tools: readonly string[]): Map<string, string> {
  const out = new Map<string, string>();
  const taken = new Map<string, number>();
  for (const t of tools) {
    const n = mcpToolName(server, t);
    taken.set(n, (taken.get(n) ?? 0) + 1);
  }
  for (const t of tools) {
    let n = mcpToolName(server, t);
    if ((taken.get(n) ?? 0) > 1) {
      const suffix = `_${fnv1a(`${server}\0${t}`)}`;
      n = n.slice(0, Math.min(n.length, TOOL_NAME_MAX - suffix.length)) + suffix;
    }
    out.set(t, n);
  }
  return out;
}
