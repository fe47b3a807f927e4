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

export type SavedMcpServer = { name: string; url: string };

/** MCP servers the user registered in settings (this browser). */
export class McpServerStore {
  static readonly KEY = "tabula:mcp-servers";
  constructor(private readonly storage: Pick<Storage, "getItem" | "setItem">) {}
  list(): SavedMcpServer[] {
    try {
      const v = JSON.parse(this.storage.getItem(McpServerStore.KEY) ?? "[]") as SavedMcpServer[];
      return Array.isArray(v) ? v.filter((s) => s && typeof s.name === "string" && typeof s.url === "string") : [];
    } catch {
      return [];
    }
  }
  add(name: string, url: string): SavedMcpServer {
    const n = name.trim();
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(n)) throw new Error("An MCP server name is 1–40 letters, digits, _ or -");
    let u: URL;
    try {
      u = new URL(url.trim());
    } catch {
      throw new Error(`"${url}" is not a URL`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("An MCP server URL must start with http:// or https://");
    const s = { name: n, url: u.toString() };
    this.storage.setItem(McpServerStore.KEY, JSON.stringify([...this.list().filter((x) => x.name !== n), s]));
    return s;
  }
  remove(name: string): void {
    this.storage.setItem(McpServerStore.KEY, JSON.stringify(this.list().filter((x) => x.name !== name)));
  }
}
