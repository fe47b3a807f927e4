/**
 * Messages written while a run is going: they wait in order and the next one is sent when a run
 * completes, as Claude Code and Cline do, so a thought typed mid-run is neither lost nor sent
 * into the middle of a turn. A run that was stopped or failed pauses the queue instead: what was
 * queued was written for a run that went on, so the user says whether it still applies (send
 * the next one, edit it, or drop it). Pure state transitions; the panel holds the state.
 */
import type { RunStatus } from "./types";

export type QueuedPrompt = { id: number; text: string };
export type PromptQueueState = { items: readonly QueuedPrompt[]; nextId: number; paused?: string };

export const MAX_QUEUED = 20;

export const emptyQueue: PromptQueueState = { items: [], nextId: 1 };

export function enqueue(s: PromptQueueState, text: string): PromptQueueState {
  const t = text.trim();
  if (!t) return s;
  if (s.items.length >= MAX_QUEUED) throw new Error(`At most ${MAX_QUEUED} messages can wait; send or drop one first.`);
  return { ...s, items: [...s.items, { id: s.nextId, text: t }], nextId: s.nextId + 1 };
}

/** Without the message `id` (dropped, or taken back into the prompt box to edit). */
export function dequeue(s: PromptQueueState, id: number): PromptQueueState {
  const items = s.items.filter((q) => q.id !== id);
  if (items.length === s.items.length) return s;
  return items.length ? { ...s, items } : { items, nextId: s.nextId };
}

export type QueueStep = { state: PromptQueueState; send?: string };

/** A run ended: after a completed run the first message goes; after a stopped or failed one the queue pauses. */
export function onRunEnded(s: PromptQueueState, status: RunStatus, reason?: string): QueueStep {
  if (s.items.length === 0) return { state: s.paused ? { items: s.items, nextId: s.nextId } : s };
  if (status !== "completed") return { state: { ...s, paused: status === "aborted" ? (reason ?? "The run was stopped") : `The run failed${reason ? `: ${reason}` : ""}` } };
  if (s.paused) return { state: s };
  return take(s);
}

/** The user sends what waits (after a pause): the first message goes, the rest wait for the next run. */
export function resume(s: PromptQueueState): QueueStep {
  return take({ items: s.items, nextId: s.nextId });
}

function take(s: PromptQueueState): QueueStep {
  const [first, ...rest] = s.items;
  if (!first) return { state: s };
  return { state: { ...s, items: rest }, send: first.text };
}
