/**
 * An in-memory log of workspace changes. Consumers (file tree, git status, search index) keep
 * the last `seq` they processed and ask for what happened since, instead of rescanning the
 * whole workspace, which on IndexedDB costs ~1 ms per file.
 *
 * The log is a ring buffer: once old events fall out, `since` answers `undefined` so callers
 * know to fall back to a full scan rather than silently missing changes.
 */

export type ChangeKind = "write" | "delete" | "rename" | "mkdir";

export type ChangeEvent = {
  seq: number;
  kind: ChangeKind;
  /** Workspace-relative path; for a rename the destination. */
  path: string;
  /** Rename source. */
  from?: string;
  /** Who made the change ("user", "agent", "git", ...); defaults to "user". */
  origin: string;
  at: number;
};

export type ChangeInput = { kind: ChangeKind; path: string; from?: string; origin?: string };

export const DEFAULT_JOURNAL_CAPACITY = 10_000;

export class ChangeJournal {
  private readonly capacity: number;
  private readonly ring: (ChangeEvent | undefined)[];
  private lastSeq = 0;
  /** `since(s)` for any s below this is unanswerable (set by markUnknown). */
  private knownFrom = 0;
  private readonly listeners = new Set<(e: ChangeEvent) => void>();

  constructor(capacity = DEFAULT_JOURNAL_CAPACITY) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError("capacity must be a positive integer");
    this.capacity = capacity;
    this.ring = new Array<ChangeEvent | undefined>(capacity);
  }

  get seq(): number {
    return this.lastSeq;
  }

  record(change: ChangeInput): ChangeEvent {
    const event: ChangeEvent = {
      seq: ++this.lastSeq,
      kind: change.kind,
      path: change.path,
      origin: change.origin ?? "user",
      at: Date.now(),
    };
    if (change.from !== undefined) event.from = change.from;
    this.ring[(event.seq - 1) % this.capacity] = event;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        // A faulty listener must not make the file operation that recorded the change fail
        // (the change already happened); rethrow asynchronously so it still gets reported.
        queueMicrotask(() => {
          throw err;
        });
      }
    }
    return event;
  }

  subscribe(listener: (e: ChangeEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  /**
   * Events after `seq`, oldest first; `undefined` when the journal cannot vouch for them:
   * the ring buffer no longer reaches back that far, `markUnknown` was called after `seq`,
   * or `seq` comes from the future (another journal instance, e.g. before a reload).
   */
  since(seq: number): ChangeEvent[] | undefined {
    if (!Number.isInteger(seq) || seq < 0 || seq > this.lastSeq) return undefined;
    if (seq < this.knownFrom) return undefined;
    const oldestKept = Math.max(1, this.lastSeq - this.capacity + 1);
    if (seq + 1 < oldestKept) return undefined;
    const out: ChangeEvent[] = [];
    for (let s = seq + 1; s <= this.lastSeq; s++) {
      const e = this.ring[(s - 1) % this.capacity];
      // Slots of seqs consumed by markUnknown hold stale or no events; they are at or below
      // knownFrom, which the check above already put out of reach.
      if (e && e.seq === s) out.push(e);
    }
    return out;
  }

  /** Paths touched after `seq` (both sides of renames; a removed directory appears as its own
   * path, so callers must treat each entry as "this path and everything under it"). */
  dirtySince(seq: number): Set<string> | undefined {
    const events = this.since(seq);
    if (!events) return undefined;
    const paths = new Set<string>();
    for (const e of events) {
      paths.add(e.path);
      if (e.from !== undefined) paths.add(e.from);
    }
    return paths;
  }

  /** Declare that files changed without being recorded (e.g. another tab wrote them): from now
   * on no earlier seq can be answered incrementally. The sequence number advances (without an
   * event) so that a caller who rescans and then reads `seq` gets a value that is answerable,
   * while a caller still holding the pre-mark `seq` is told to rescan. */
  markUnknown(): void {
    this.lastSeq += 1;
    this.knownFrom = this.lastSeq;
  }
}
