/**
 * The panel's state as an external store (subscribe / getSnapshot, the shape React's
 * `useSyncExternalStore` reads): it follows one session at a time and folds its events through
 * `reducePanel`. No React here; the store is as usable from a test or another view.
 */
import type { AgentEventListener } from "./events";
import { initialPanelState, reducePanel, type PanelSeed, type PanelState } from "./panel-state";

/** What the store needs of a session: its events, and what it is doing when followed. */
export interface PanelSource {
  readonly state: PanelSeed;
  subscribe(listener: AgentEventListener): () => void;
}

export class PanelStore {
  private state: PanelState;
  private readonly listeners = new Set<() => void>();
  private unfollow?: () => void;

  constructor(initial: PanelState = initialPanelState()) {
    this.state = initial;
  }

  /** The current state; the same object until the next event (React compares by identity). */
  readonly getSnapshot = (): PanelState => this.state;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /**
   * Follow `session` from now on: the state starts again from what it is doing now, then takes
   * each of its events. Following another session (or calling the returned function) stops the
   * previous one.
   */
  follow(session: PanelSource): () => void {
    this.unfollow?.();
    this.set(initialPanelState(session.state));
    const off = session.subscribe((e) => this.set(reducePanel(this.state, e)));
    const unfollow = () => {
      off();
      if (this.unfollow === unfollow) this.unfollow = undefined;
    };
    this.unfollow = unfollow;
    return unfollow;
  }

  private set(next: PanelState): void {
    this.state = next;
    for (const l of [...this.listeners]) l();
  }
}
