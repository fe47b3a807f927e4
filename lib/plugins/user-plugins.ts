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

export type SavedMcpServer = { name: string; url: string; headers?: Record<string, string> };

/**
 * MCP servers the user registered in settings (this browser). A server's token is kept apart
 * from the list, under its own storage key, as model keys are: listing or showing servers never
 * carries it, and it leaves this browser only in the requests to that server.
 */
export class McpServerStore {
  static readonly KEY = "tabula:mcp-servers";
  static readonly SECRETS_KEY = "tabula:mcp-server-tokens";
  constructor(private readonly storage: Pick<Storage, "getItem" | "setItem">) {}
  private read<T>(key: string, fallback: T): T {
    try {
      return (JSON.parse(this.storage.getItem(key) ?? "null") as T) ?? fallback;
    } catch {
      return fallback;
    }
  }
  private tokens(): Record<string, string> {
    const t = this.read<Record<string, string>>(McpServerStore.SECRETS_KEY, {});
    return t && typeof t === "object" && !Array.isArray(t) ? t : {};
  }
  /** The servers, without their tokens. */
  list(): SavedMcpServer[] {
    const v = this.read<SavedMcpServer[]>(McpServerStore.KEY, []);
    return Array.isArray(v) ? v.filter((s) => s && typeof s.name === "string" && typeof s.url === "string").map((s) => ({ name: s.name, url: s.url })) : [];
  }
  /** Whether a token is kept for the server (to show it, never the token itself). */
  hasToken(name: string): boolean {
    return typeof this.tokens()[name] === "string";
  }
  /** The servers with the headers to connect with (Authorization: Bearer <token>). */
  connections(): SavedMcpServer[] {
    const tokens = this.tokens();
    return this.list().map((s) => (tokens[s.name] ? { ...s, headers: { authorization: `Bearer ${tokens[s.name]}` } } : s));
  }
  add(name: string, url: string, token?: string): SavedMcpServer {
    const n = name.trim();
    if (!/^[A-Za-z0-9_-]{1,40}$/.test(n)) throw new Error("An MCP server name is 1–40 letters, digits, _ or -");
    let u: URL;
    try {
      u = new URL(url.trim());
    } catch {
      throw new Error(`"${url}" is not a URL`);
    }
    if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("An MCP server URL must start with http:// or https://");
    if (u.username || u.password) throw new Error("Put the server's token in the token field, not in the URL");
    const t = token?.trim();
    if (t && /[\r\n]/.test(t)) throw new Error("A token is one line");
    const s = { name: n, url: u.toString() };
    this.storage.setItem(McpServerStore.KEY, JSON.stringify([...this.list().filter((x) => x.name !== n), s]));
    const { [n]: _old, ...others } = this.tokens();
    this.storage.setItem(McpServerStore.SECRETS_KEY, JSON.stringify(t ? { ...others, [n]: t } : others));
    return s;
  }
  remove(name: string): void {
    this.storage.setItem(McpServerStore.KEY, JSON.stringify(this.list().filter((x) => x.name !== name)));
    const { [name]: _gone, ...others } = this.tokens();
    this.storage.setItem(McpServerStore.SECRETS_KEY, JSON.stringify(others));
  }
}
