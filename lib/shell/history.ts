/**
 * Terminal command history: bounded, consecutive duplicates collapsed, with up/down
 * navigation that keeps the line being typed, serialisable for the caller to persist.
 */

export type CommandHistoryJSON = { version: 1; max: number; entries: string[] };

export class CommandHistory {
  readonly max: number;
  private items: string[] = [];
  /** Navigation position: items.length means "the line being typed". */
  private pos = 0;
  private draft = "";

  constructor(max = 1000, entries: readonly string[] = []) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError("max must be a positive integer");
    this.max = max;
    for (const e of entries) this.add(e);
    this.reset();
  }

  get size(): number {
    return this.items.length;
  }

  /** Oldest first. */
  entries(): string[] {
    return [...this.items];
  }

  /** Record a command. Blank lines and a repeat of the previous command are not added;
   * a command starting with a space is kept out of history, as with HISTCONTROL=ignorespace. */
  add(command: string): boolean {
    const line = command.replace(/\r?\n$/, "");
    this.reset();
    if (line.trim() === "" || line.startsWith(" ")) return false;
    if (this.items[this.items.length - 1] === line) return false;
    this.items.push(line);
    if (this.items.length > this.max) this.items.splice(0, this.items.length - this.max);
    this.pos = this.items.length;
    return true;
  }

  /** The n-th most recent entry (0 = last), or undefined. */
  recent(n = 0): string | undefined {
    return this.items[this.items.length - 1 - n];
  }

  /** Arrow-up: the previous entry; `current` is the line being edited (kept as a draft). */
  previous(current = ""): string | undefined {
    if (this.items.length === 0) return undefined;
    if (this.pos === this.items.length) this.draft = current;
    if (this.pos === 0) return this.items[0];
    this.pos--;
    return this.items[this.pos];
  }

  /** Arrow-down: the next entry, or the saved draft past the newest one. */
  next(): string | undefined {
    if (this.pos >= this.items.length) return undefined;
    this.pos++;
    return this.pos === this.items.length ? this.draft : this.items[this.pos];
  }

  /** Stop navigating (after Enter or Escape). */
  reset(): void {
    this.pos = this.items.length;
    this.draft = "";
  }

  /** Newest entries containing `text` (Ctrl-R), most recent first. */
  search(text: string, limit = 20): string[] {
    const out: string[] = [];
    for (let i = this.items.length - 1; i >= 0 && out.length < limit; i--) {
      const e = this.items[i]!;
      if (e.includes(text) && !out.includes(e)) out.push(e);
    }
    return out;
  }

  clear(): void {
    this.items = [];
    this.reset();
  }

  toJSON(): CommandHistoryJSON {
    return { version: 1, max: this.max, entries: [...this.items] };
  }

  /** Restore from toJSON() output (or its string form); bad input gives an empty history. */
  static fromJSON(json: unknown, max?: number): CommandHistory {
    let data: unknown = json;
    if (typeof json === "string") {
      try {
        data = JSON.parse(json);
      } catch {
        data = null;
      }
    }
    const d = data as Partial<CommandHistoryJSON> | null;
    const entries = Array.isArray(d?.entries) ? d!.entries.filter((e): e is string => typeof e === "string") : [];
    const m = max ?? (typeof d?.max === "number" && Number.isInteger(d.max) && d.max > 0 ? d.max : 1000);
    return new CommandHistory(m, entries);
  }
}
