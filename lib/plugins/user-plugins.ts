/** Plugins the user installed from a file, kept in this browser (localStorage), for every workspace. */
export type UserPlugin = { id: string; fileName: string; source: string; installedAt: number };

const KEY = "tabula:user-plugins";
const MAX_BYTES = 1024 * 1024;

export class UserPluginStore {
  constructor(private readonly storage: Pick<Storage, "getItem" | "setItem">) {}
  list(): UserPlugin[] {
    try {
      const v = JSON.parse(this.storage.getItem(KEY) ?? "[]") as UserPlugin[];
      return Array.isArray(v) ? v.filter((p) => p && typeof p.source === "string" && typeof p.id === "string") : [];
    } catch {
      return [];
    }
  }
  install(fileName: string, source: string, now = Date.now()): UserPlugin {
    if (source.length > MAX_BYTES) throw new Error(`${fileName} is larger than ${MAX_BYTES / 1024} KB`);
    const base = fileName.replace(/\.(m?js|ts)$/i, "").replace(/[^A-Za-z0-9._-]+/g, "-") || "plugin";
    const p: UserPlugin = { id: `user:${base}`, fileName, source, installedAt: now };
    this.storage.setItem(KEY, JSON.stringify([...this.list().filter((x) => x.id !== p.id), p]));
    return p;
  }
  remove(id: string): void {
    this.storage.setItem(KEY, JSON.stringify(this.list().filter((x) => x.id !== id)));
  }
}

/** Which plugins are switched on, per workspace (absent: the plugin's default). */
export class PluginSwitches {
  constructor(
    private readonly storage: Pick<Storage, "getItem" | "setItem">,
    private readonly workspaceId: string,
  ) {}
  private get key() {
    return `tabula:plugins:${this.workspaceId}`;
  }
  all(): Record<string, boolean> {
    try {
      return JSON.parse(this.storage.getItem(this.key) ?? "{}") as Record<string, boolean>;
    } catch {
      return {};
    }
  }
  set(id: string, on: boolean): void {
    this.storage.setItem(this.key, JSON.stringify({ ...this.all(), [id]: on }));
  }
}
