/**
 * Which rules files the user turned off, per workspace, in this browser's storage (like the
 * workspace's trust): a choice about this copy of the workspace that must not travel with its
 * files, and that the agent's tools cannot change.
 */
type Storage = Pick<globalThis.Storage, "getItem" | "setItem" | "removeItem">;

export class RuleSwitches {
  constructor(
    private readonly storage: Storage,
    private readonly workspaceId: string,
  ) {}

  get key(): string {
    return `tabula:rules-off:${this.workspaceId}`;
  }

  /** The paths turned off (a damaged record counts as none). */
  disabled(): Set<string> {
    try {
      const raw: unknown = JSON.parse(this.storage.getItem(this.key) ?? "[]");
      return new Set(Array.isArray(raw) ? raw.filter((p): p is string => typeof p === "string") : []);
    } catch {
      return new Set();
    }
  }

  setEnabled(path: string, enabled: boolean): Set<string> {
    const off = this.disabled();
    if (enabled) off.delete(path);
    else off.add(path);
    if (off.size === 0) this.storage.removeItem(this.key);
    else this.storage.setItem(this.key, JSON.stringify([...off].sort()));
    return off;
  }
}
