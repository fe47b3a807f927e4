/**
 * The timeline of one agent session, built from its checkpoints (lib/checkpoints) and its
 * conversation. Pure: no I/O, so it is cheap to rebuild on every event.
 *
 * A tick is a state of the workspace the user can preview and go back to:
 *  - "run": the files just before a turn (the run's own checkpoint); restoring the
 *    conversation to it puts that turn's prompt back in the composer;
 *  - "call": the files one of a turn's file-changing tool calls left ("Turn 2 · step 3"), shown
 *    when it changed something since the previous tick;
 *  - "end": the files a turn left, shown only when they differ from the next tick (that is,
 *    when edits by hand came between two turns) or for the last turn, and not when its last
 *    step already shows them;
 *  - "save": a save point the user made (named, maybe pinned);
 *  - "restore": the state a restore replaced (so a restore is itself a point to go back to).
 */
import type { CheckpointInfo, CheckpointKind } from "../checkpoints/checkpoint";
import type { AgentMessage } from "../agent/messages";

export type Tick = {
  ref: string;
  kind: CheckpointKind;
  at: number;
  tree: string;
  /** The turn this tick belongs to (run, call and end ticks). */
  run?: number;
  /** The step of the turn (call ticks: 1 for the first file-changing call). */
  step?: number;
  /** "Turn 2", "After turn 3", "Save point", … */
  title: string;
  /** The turn's prompt, or the save point's name. */
  detail?: string;
  pinned?: boolean;
  /** The prompt message of the turn (run ticks whose turn is still in the conversation). */
  messageId?: string;
  /** The previous tick's ref, and who made the changes since: the agent (a turn) or you (edits by hand). */
  since?: { ref: string; by?: "agent" | "you" };
  /**
   * A group of child sessions (a team, a sub-agent) shown as one point: the files before the
   * first of them changed anything. Restoring it undoes the whole group at once.
   */
  group?: { key: string; sessions: number; checkpoints: number; lastRef: string };
};

/** Child sessions that show as one point on their parent's timeline (by the call that made them). */
export type TickGroup = { key: string; title: string; sessions: number; checkpoints: readonly CheckpointInfo[] };

/** Run number of a checkpoint, for run ("3"), end ("3-end") and call ("3-c2") checkpoints. */
export function runNumberOf(c: Pick<CheckpointInfo, "run" | "kind">): number | undefined {
  const m = /^(\d+)(?:-end|-c\d+)?$/.exec(String(c.run));
  return m ? Number(m[1]) : undefined;
}

/** Step number of a call checkpoint ("3-c2" → 2). */
export function stepNumberOf(c: Pick<CheckpointInfo, "run" | "kind">): number | undefined {
  const m = /^\d+-c(\d+)$/.exec(String(c.run));
  return c.kind === "call" && m ? Number(m[1]) : undefined;
}

function promptText(m: AgentMessage): string {
  return m.content
    .map((p) => ("text" in p && typeof p.text === "string" ? p.text : ""))
    .join("")
    .replace(/\s+/g, " ")
    .trim();
}

function promptOf(messages: readonly AgentMessage[], run: number): AgentMessage | undefined {
  return messages.find((m) => m.role === "user" && m.run === run && (m.kind ?? "prompt") === "prompt");
}

/** Ticks in time order. `checkpoints` are the session's (any order). */
export function buildTimeline(checkpoints: readonly CheckpointInfo[], messages: readonly AgentMessage[]): Tick[] {
  const sorted = [...checkpoints].sort((a, b) => a.createdAt - b.createdAt || a.ref.localeCompare(b.ref));
  const starts = new Map<number, CheckpointInfo>();
  for (const c of sorted) {
    const n = runNumberOf(c);
    if (c.kind === "run" && n !== undefined) starts.set(n, c);
  }
  const nextStartAfter = (c: CheckpointInfo) => sorted.find((x) => x.kind === "run" && x.createdAt >= c.createdAt && x !== c && (runNumberOf(x) ?? 0) > (runNumberOf(c) ?? 0));

  const ticks: Tick[] = [];
  const manualBefore = new Set<string>(); // refs of run ticks preceded by edits made by hand
  for (const c of sorted) {
    const run = runNumberOf(c);
    const base = { ref: c.ref, kind: c.kind, at: c.createdAt, tree: c.tree } as const;
    if (c.kind === "run" && run !== undefined) {
      const msg = promptOf(messages, run);
      const tick: Tick = { ...base, run, title: `Turn ${run}`, detail: msg ? promptText(msg) : c.label };
      if (msg) tick.messageId = msg.id;
      ticks.push(tick);
    } else if (c.kind === "call" && run !== undefined) {
      const prev = ticks[ticks.length - 1];
      if (prev && prev.tree === c.tree) continue; // the step changed nothing
      ticks.push({ ...base, run, step: stepNumberOf(c), title: `Turn ${run} · step ${stepNumberOf(c) ?? "?"}`, detail: c.label });
    } else if (c.kind === "end" && run !== undefined) {
      const next = nextStartAfter(c);
      if (next) {
        if (next.tree === c.tree) continue; // nothing happened between the turns: same state as the next tick
        manualBefore.add(next.ref);
      } else if (starts.get(run)?.tree === c.tree) continue; // the last turn changed nothing
      const prev = ticks[ticks.length - 1];
      if (prev?.kind === "call" && prev.run === run && prev.tree === c.tree) continue; // its last step shows that state
      ticks.push({ ...base, run, title: `After turn ${run}`, detail: c.label });
    } else if (c.kind === "save") {
      const tick: Tick = { ...base, title: "Save point", detail: c.label };
      if (c.pinned) tick.pinned = true;
      ticks.push(tick);
    } else if (c.kind === "restore") {
      ticks.push({ ...base, title: "Before a restore", detail: c.label });
    }
  }
  for (let i = 1; i < ticks.length; i++) {
    const t = ticks[i]!;
    const prev = ticks[i - 1]!;
    let by: "agent" | "you" | undefined;
    if (t.kind === "run" && manualBefore.has(t.ref)) by = "you";
    else if (t.kind === "run" && (prev.kind === "run" || prev.kind === "call") && prev.run !== undefined && prev.run === (t.run ?? 0) - 1) by = "agent";
    else if ((t.kind === "end" || t.kind === "call") && (prev.kind === "run" || prev.kind === "call") && prev.run === t.run) by = "agent";
    t.since = { ref: prev.ref, by };
  }
  return ticks;
}

/**
 * The conversation as it was at a tick: how many messages to keep, and (for a turn's tick) the
 * prompt that goes back into the composer.
 */
export function conversationAt(tick: Tick, messages: readonly AgentMessage[]): { keep: number; prompt?: string } {
  if (tick.kind === "run" && tick.run !== undefined) {
    const idx = messages.findIndex((m) => m.role === "user" && m.run === tick.run && (m.kind ?? "prompt") === "prompt");
    if (idx !== -1) return { keep: idx, prompt: messages[idx]!.content.map((p) => ("text" in p && typeof p.text === "string" ? p.text : "")).join("") };
  }
  if (tick.kind === "end" && tick.run !== undefined) {
    const idx = messages.findIndex((m) => (m.run ?? 0) > tick.run!);
    return { keep: idx === -1 ? messages.length : idx };
  }
  let keep = 0;
  while (keep < messages.length && messages[keep]!.createdAt <= tick.at) keep++;
  return { keep };
}

/** One tick per group: its earliest checkpoint (the state before any member changed a file). */
export function groupTicks(groups: readonly TickGroup[]): Tick[] {
  const out: Tick[] = [];
  for (const g of groups) {
    const sorted = [...g.checkpoints].sort((a, b) => a.createdAt - b.createdAt || a.ref.localeCompare(b.ref));
    const first = sorted[0];
    if (!first) continue;
    const n = sorted.length;
    out.push({
      ref: first.ref,
      kind: first.kind,
      at: first.createdAt,
      tree: first.tree,
      title: g.title,
      detail: `before it ran (${g.sessions} session${g.sessions === 1 ? "" : "s"}, ${n} checkpoint${n === 1 ? "" : "s"}: restoring undoes them all)`,
      group: { key: g.key, sessions: g.sessions, checkpoints: n, lastRef: sorted[n - 1]!.ref },
    });
  }
  return out;
}

/** The session's own ticks and its groups' in time order, each tick's `since` pointing at the one before it. */
export function mergeTicks(own: readonly Tick[], groups: readonly Tick[]): Tick[] {
  if (groups.length === 0) return [...own];
  const all = [...own, ...groups].sort((a, b) => a.at - b.at || (a.group ? 1 : 0) - (b.group ? 1 : 0));
  return all.map((t, i) => {
    if (i === 0) {
      const { since: _s, ...rest } = t;
      void _s;
      return rest;
    }
    const prev = all[i - 1]!;
    const by = t.group ? "agent" : t.since?.by;
    return { ...t, since: by ? { ref: prev.ref, by } : { ref: prev.ref } };
  });
}
