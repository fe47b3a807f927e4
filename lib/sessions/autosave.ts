/** Keep a session saved: after each run and setting change, and (debounced) during a run. */
import type { AgentSession } from "../agent/session";
import type { SessionStore } from "./store";

export type Autosave = {
  /** Save now (e.g. on pagehide). */
  flush(): Promise<void>;
  detach(): void;
};

export function attachAutosave(session: AgentSession, store: SessionStore, opts: { debounceMs?: number; onError?: (err: unknown) => void } = {}): Autosave {
  const debounceMs = opts.debounceMs ?? 750;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let saving: Promise<void> = Promise.resolve();
  const save = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    saving = saving.then(() => store.save(session.toJSON())).catch((err) => opts.onError?.(err));
    return saving;
  };
  const off = session.subscribe((e) => {
    // Deltas are frequent and change nothing persisted until the message lands.
    if (e.type === "text-delta" || e.type === "reasoning-delta" || e.type === "model-request") return;
    // A message outside a run (a team's report, a note steered in) has no run end to save it: now.
    const outsideRun = e.type === "message-added" && !session.state.running;
    if (outsideRun || e.type === "run-finished" || e.type === "session-updated" || e.type === "mode-changed" || e.type === "checkpoint-created") {
      void save();
      return;
    }
    if (timer === undefined) timer = setTimeout(() => void save(), debounceMs);
  });
  return {
    flush: save,
    detach() {
      off();
      if (timer !== undefined) clearTimeout(timer);
    },
  };
}
