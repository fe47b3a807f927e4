/**
 * A most-recently-used list (commands run, files opened), capped, most recent first. It is plain data
 * so the page can keep it in localStorage and tests can build one from an array.
 */
export class RecentList {
  private items: string[];

  constructor(
    initial: readonly string[] = [],
    readonly cap = 50,
  ) {
    this.items = [...new Set(initial.filter((x) => typeof x === "string"))].slice(0, cap);
  }

  /** Moves `item` to the front. */
  touch(item: string): void {
    this.items = [item, ...this.items.filter((x) => x !== item)].slice(0, this.cap);
  }

  /** Replaces `from` by `to` where it stands (a renamed file keeps its place). */
  rename(from: string, to: string): void {
    this.items = this.items.filter((x) => x !== to).map((x) => (x === from ? to : x));
  }

  list(): readonly string[] {
    return this.items;
  }

  /** The list as stored: a JSON array. */
  serialize(): string {
    return JSON.stringify(this.items);
  }

  /** Reads what `serialize` wrote; anything else (missing, corrupt) is an empty list, never an error. */
  static parse(text: string | null | undefined, cap?: number): RecentList {
    if (!text) return new RecentList([], cap);
    try {
      const value: unknown = JSON.parse(text);
      return new RecentList(Array.isArray(value) ? value : [], cap);
    } catch {
      return new RecentList([], cap);
    }
  }
}
