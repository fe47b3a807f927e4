/**
 * Search over whole sessions: prompts, answers, tool calls (their names, paths, commands and
 * patterns) and what tools read back, with a snippet per hit and the message it is in, so the
 * history list can say where a word was found and open the session at that message. A session
 * matches when every word of the query occurs in it (case-insensitive), anywhere; its hits are
 * the messages holding the most of those words, in conversation order.
 */
import { textOf, toolCallsOf, type AgentMessage } from "../agent/messages";

/** What is searched of a session: its saved form, or a live session's state. */
export type SearchableSession = { id: string; title: string; updatedAt: number; messages: readonly AgentMessage[] };

export type SearchWhere = "prompt" | "answer" | "tool call" | "tool result";

export type SearchHit = { messageId: string; where: SearchWhere; snippet: string; tool?: string };

export type SessionSearchResult = { sessionId: string; title: string; updatedAt: number; hits: SearchHit[]; more: number };

/** Characters of a tool result searched (the start of it: where names and first lines are). */
const RESULT_CHARS = 4_000;
const SNIPPET_RADIUS = 50;
const HITS_PER_SESSION = 3;

type Piece = { messageId: string; where: SearchWhere; text: string; tool?: string };

function inputText(input: unknown, depth = 0): string {
  if (depth > 4 || input === null || input === undefined) return "";
  if (typeof input === "string") return input;
  if (typeof input === "number" || typeof input === "boolean") return String(input);
  if (Array.isArray(input)) return input.map((x) => inputText(x, depth + 1)).join(" ");
  if (typeof input === "object") return Object.values(input as Record<string, unknown>).map((v) => inputText(v, depth + 1)).join(" ");
  return "";
}

/** The searchable pieces of a conversation, in order. */
export function searchPieces(messages: readonly AgentMessage[]): Piece[] {
  const out: Piece[] = [];
  for (const m of messages) {
    if (m.role === "user") {
      const text = textOf(m);
      if (text) out.push({ messageId: m.id, where: "prompt", text });
    } else if (m.role === "assistant") {
      const text = textOf(m);
      if (text) out.push({ messageId: m.id, where: "answer", text });
      for (const c of toolCallsOf(m)) out.push({ messageId: m.id, where: "tool call", tool: c.toolName, text: `${c.toolName} ${inputText(c.input)}` });
    } else {
      for (const r of m.content) {
        const v = (r.output as { value?: unknown } | undefined)?.value;
        const text = (typeof v === "string" ? v : inputText(v)).slice(0, RESULT_CHARS);
        if (text) out.push({ messageId: m.id, where: "tool result", tool: r.toolName, text });
      }
    }
  }
  return out;
}

export function queryWords(query: string): string[] {
  return [...new Set(query.toLowerCase().split(/\s+/).filter(Boolean))];
}

function snippetOf(text: string, lower: string, words: readonly string[]): string {
  let at = -1;
  for (const w of words) {
    const i = lower.indexOf(w);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  const start = Math.max(0, at - SNIPPET_RADIUS);
  const end = Math.min(text.length, at + SNIPPET_RADIUS * 2);
  return `${start > 0 ? "…" : ""}${text.slice(start, end).replace(/\s+/g, " ").trim()}${end < text.length ? "…" : ""}`;
}

/** One session against the query's words: undefined when some word occurs nowhere in it. */
export function searchSession(data: SearchableSession, words: readonly string[]): SessionSearchResult | undefined {
  if (words.length === 0) return undefined;
  const title = data.title.toLowerCase();
  const pieces = searchPieces(data.messages).map((p) => ({ ...p, lower: p.text.toLowerCase() }));
  const found = new Set(words.filter((w) => title.includes(w)));
  const scored: { p: (typeof pieces)[number]; score: number; order: number }[] = [];
  pieces.forEach((p, order) => {
    const has = words.filter((w) => p.lower.includes(w));
    for (const w of has) found.add(w);
    if (has.length) scored.push({ p, score: has.length, order });
  });
  if (found.size < words.length) return undefined;
  const best = [...scored].sort((a, b) => b.score - a.score || a.order - b.order);
  // One hit per message: the best piece of it.
  const seen = new Set<string>();
  const picked = best.filter(({ p }) => !seen.has(p.messageId) && seen.add(p.messageId));
  const hits = picked
    .slice(0, HITS_PER_SESSION)
    .sort((a, b) => a.order - b.order)
    .map(({ p }): SearchHit => {
      const hit: SearchHit = { messageId: p.messageId, where: p.where, snippet: snippetOf(p.text, p.lower, words) };
      if (p.tool) hit.tool = p.tool;
      return hit;
    });
  return { sessionId: data.id, title: data.title, updatedAt: data.updatedAt, hits, more: Math.max(0, picked.length - hits.length) };
}

/** Every matching session, most recently updated first. */
export function searchSessions(sessions: readonly SearchableSession[], query: string): SessionSearchResult[] {
  const words = queryWords(query);
  const out: SessionSearchResult[] = [];
  for (const s of sessions) {
    const r = searchSession(s, words);
    if (r) out.push(r);
  }
  return out.sort((a, b) => b.updatedAt - a.updatedAt);
}
