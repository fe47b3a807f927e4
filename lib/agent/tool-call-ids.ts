/**
 * Tool-call ids must be unique within a conversation: the transcript pairs each call with its
 * result by id, and so does every provider. Providers and proxies do not always keep that
 * promise (a gateway restarting its counter per response, a local server answering `call_0`
 * every time), so the loop re-keys any id already used, or used twice in one response, before
 * the call is recorded. The new id is what the model is sent back: it never sees the clash.
 */
import { randomId } from "./ids";
import { toolCallsOf, type AgentMessage } from "./messages";

/** Ids of every tool call (and tool result) already in the conversation. */
export function usedToolCallIds(messages: readonly AgentMessage[]): Set<string> {
  const used = new Set<string>();
  for (const m of messages) {
    for (const c of toolCallsOf(m)) used.add(c.toolCallId);
    if (m.role === "tool") for (const r of m.content) used.add(r.toolCallId);
  }
  return used;
}

/**
 * The calls with every id unique against `used` and each other (the first use of an id keeps it).
 * `used` is extended with the ids returned. A new id is nine letters and digits: the strictest
 * rule a provider sets (Mistral's), and within everyone else's.
 */
export function uniqueToolCallIds<T extends { toolCallId: string }>(calls: readonly T[], used: Set<string>, fresh: () => string = () => randomId(9)): { calls: T[]; rekeyed: { from: string; to: string }[] } {
  const rekeyed: { from: string; to: string }[] = [];
  const out = calls.map((c) => {
    const id = c.toolCallId;
    if (typeof id === "string" && id.length > 0 && !used.has(id)) {
      used.add(id);
      return c;
    }
    let next = fresh();
    while (used.has(next)) next = fresh();
    used.add(next);
    rekeyed.push({ from: String(id), to: next });
    return { ...c, toolCallId: next };
  });
  return { calls: out, rekeyed };
}
