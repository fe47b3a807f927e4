/**
 * The plugins of one agent session, from discovery to the session's hooks:
 *
 *   discover   read every code file under .tabula/plugins and .tabula/hooks (text + hash, no eval)
 *   trust      keep only what the user accepted: nothing in a restricted workspace; in a trusted
 *              one, the files whose hash the user accepted (changes wait for review)
 *   load       built-in plugins in-process; workspace and installed plugins each in a sandbox
 *              worker (or in the page, if the user opted that plugin in); MCP servers
 *   attach     every contribution and hook goes into the session through PluginHost
 *   reload     when a code file changes (journal), when trust changes, or on request
 *
 * Framework-free: the UI subscribes (a useSyncExternalStore-shaped pair) and calls the intents.
 * Edits the user makes by hand in the editor or the file tree are accepted as they are saved;
 * any other write (the agent, its shell, git, a checkpoint restore, another tab) leaves the file
 * out until the user accepts the change.
 */
import type { AgentSession } from "../agent/session";
import type { ChangeEvent } from "../fs/journal";
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { BuiltinPlugin } from "./builtin";
import { declaredByText, type DeclaredCode } from "./declared";
import { compileTypeScript, discoverPlugins } from "./discover";
import { PluginHost, type HostSession, type PluginEntry, type PluginStatus } from "./host";
import { inProcessEntry } from "./in-process";
import { setupInProcess } from "./load";
import { validatePlugin } from "./manifest";
import { mcpEntry } from "./mcp";
import { sandboxedEntry, type WorkerHandle } from "./sandbox/sandboxed";
import type { PluginContext, PluginSource, ProviderContribution } from "./types";
import { McpServerStore, PluginSwitches, UserPluginStore } from "./user-plugins";
import { readWorkspaceCode, isWorkspaceCodePath, type CodeFile } from "./workspace-code";
import { readWorkspaceInfo } from "./workspace-info";
import { reviewCode, WorkspaceTrustStore, type CodeChange } from "./workspace-trust";

/** Journal origins of edits made by the user's own hands (lib/editor documents, the file tree). */
export const HAND_EDIT_ORIGINS: ReadonlySet<string> = new Set(["editor", "tree"]);

/** One code file shown for a trust decision: everything in a restricted workspace, changes in a trusted one. */
export type ReviewFile = { path: string; hash?: string; change?: CodeChange["change"]; declared: DeclaredCode };

export type TrustView = {
  decision: "trusted" | "restricted" | "undecided";
  /** How the workspace was made ("imported from a zip (x.zip)"). */
  provenance: string;
  /** Restricted: every code file that would run. Trusted: the changes since the user accepted. */
  files: ReviewFile[];
};

export type PluginsSnapshot = { statuses: PluginStatus[]; logs: string[]; trust: TrustView; loading: boolean };

type Storage = Pick<globalThis.Storage, "getItem" | "setItem" | "removeItem">;

export type SessionPluginsOptions = {
  session: HostSession & Pick<AgentSession, "steer">;
  wsfs: WorkspaceFs;
  workspace: { id: string; trustedByDefault: boolean; provenance: string };
  storage: Storage;
  /** Starts one sandbox worker (the page passes its isolated worker factory). */
  createWorker(): WorkerHandle;
  builtins(): BuiltinPlugin[];
  currentModel?(): { provider?: string; modelId?: string } | undefined;
  /** The providers contributed by loaded plugins changed. */
  onProviders?(providers: ProviderContribution[]): void;
  /** Wait this long after the last change to a code file before reloading (ms). */
  reloadDelayMs?: number;
  readyTimeoutMs?: number;
};

const MAX_LOG_LINES = 200;

export class SessionPlugins {
  private host: PluginHost | undefined;
  private offHost: (() => void) | undefined;
  private readonly listeners = new Set<() => void>();
  private snapshot: PluginsSnapshot;
  private generation = 0;
  private ready: Promise<void> = Promise.resolve();
  private reloadTimer: ReturnType<typeof setTimeout> | undefined;
  /** A reload a file change has scheduled but not started yet (whenReady waits for it). */
  private scheduled: { promise: Promise<void>; resolve(): void } | undefined;
  private offJournal: (() => void) | undefined;
  /** Code-path events not yet folded into the accepted hashes (see acceptHandEdits). */
  private codeEvents: { seq: number; path: string; byHand: boolean }[] = [];
  private disposed = false;
  readonly trust: WorkspaceTrustStore;
  private readonly switches: PluginSwitches;
  private readonly users: UserPluginStore;
  private readonly mcpServers: McpServerStore;

  constructor(private readonly opts: SessionPluginsOptions) {
    this.trust = new WorkspaceTrustStore(opts.storage, opts.workspace.id, { trustedByDefault: opts.workspace.trustedByDefault });
    this.switches = new PluginSwitches(opts.storage, opts.workspace.id);
    this.users = new UserPluginStore(opts.storage);
    this.mcpServers = new McpServerStore(opts.storage);
    this.snapshot = { statuses: [], logs: [], loading: true, trust: { decision: this.decision(), provenance: opts.workspace.provenance, files: [] } };
  }

  // ---- subscription ------------------------------------------------------------------------

  subscribe = (fn: () => void): (() => void) => {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  };

  getSnapshot = (): PluginsSnapshot => this.snapshot;

  private publish(patch: Partial<PluginsSnapshot>) {
    this.snapshot = { ...this.snapshot, ...patch };
    for (const fn of [...this.listeners]) fn();
  }

  private decision(): TrustView["decision"] {
    return this.trust.get().decision ?? "undecided";
  }

  // ---- lifecycle ---------------------------------------------------------------------------

  /** Load everything and follow changes to the workspace's code files. */
  start(): void {
    this.disposed = false;
    this.offJournal ??= this.opts.wsfs.journal.subscribe((e) => this.onChange(e));
    this.reload();
  }

  /** Unload every plugin and stop following changes. */
  dispose(): void {
    this.disposed = true;
    this.generation++;
    clearTimeout(this.reloadTimer);
    this.scheduled?.resolve();
    this.scheduled = undefined;
    this.offJournal?.();
    this.offJournal = undefined;
    this.unloadAll();
  }

  /** Load again from scratch (what a file change, a trust change or the Reload button does). */
  reload(): void {
    if (this.disposed) return;
    clearTimeout(this.reloadTimer);
    const gen = ++this.generation;
    this.publish({ loading: true });
    this.ready = this.load(gen).catch((e: unknown) => this.log("plugins")("error", (e as Error).message));
    this.scheduled?.resolve();
    this.scheduled = undefined;
  }

  /**
   * Resolves when the plugins have loaded, including a reload already scheduled by a file
   * change (or after the time limit): a run must not start before its guards, nor with the
   * plugins of a moment ago.
   */
  whenReady(): Promise<void> {
    const settled = this.scheduled ? this.scheduled.promise.then(() => this.ready) : this.ready;
    return Promise.race([settled, new Promise<void>((r) => setTimeout(r, this.opts.readyTimeoutMs ?? 10_000))]);
  }

  private onChange(e: ChangeEvent) {
    const paths = (e.from ? [e.from, e.path] : [e.path]).filter(isWorkspaceCodePath);
    if (!paths.length) return;
    for (const path of paths) this.codeEvents.push({ seq: e.seq, path, byHand: HAND_EDIT_ORIGINS.has(e.origin) });
    clearTimeout(this.reloadTimer);
    if (!this.scheduled) {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      this.scheduled = { promise, resolve };
    }
    this.reloadTimer = setTimeout(() => this.reload(), this.opts.reloadDelayMs ?? 300);
  }

  private unloadAll() {
    this.offHost?.();
    this.offHost = undefined;
    this.host?.dispose();
    this.host = undefined;
    this.opts.onProviders?.([]);
  }

  private log = (name: string) => (level: string, message: string) => {
    this.publish({ logs: [...this.snapshot.logs.slice(-(MAX_LOG_LINES - 1)), `[${name}] ${level}: ${message}`] });
  };

  private async load(gen: number): Promise<void> {
    const { session, wsfs } = this.opts;
    this.unloadAll();
    const host = new PluginHost(session, {
      currentModel: () => this.opts.currentModel?.(),
      mcpEntry: (server, plugin) => mcpEntry({ ...server, source: "workspace", origin: `${server.url} (registered by ${plugin})` }),
    });
    this.host = host;
    this.offHost = host.onChange(() => {
      if (this.host !== host) return;
      this.publish({ statuses: host.list() });
      this.opts.onProviders?.([...host.providers]);
    });
    const stale = () => gen !== this.generation;
    const on = this.switches.all();
    const logger = (id: string) => ({ info: (m: string) => this.log(id)("info", m), warn: (m: string) => this.log(id)("warn", m), error: (m: string) => this.log(id)("error", m) });
    const ctx: PluginContext = {
      workspaceInfo: await readWorkspaceInfo({ fs: wsfs.fs, dir: wsfs.dir }),
      session: { id: session.id, mode: session.state.mode, steer: (text) => session.steer(text) },
      logger: logger("built-in"),
      workspace: { fs: wsfs.fs, dir: wsfs.dir },
    };
    if (stale()) return;

    for (const b of this.opts.builtins()) {
      const id = `built-in:${b.plugin.name}`;
      const entry: PluginEntry = {
        name: id,
        source: "built-in",
        origin: b.description,
        sandboxed: false,
        load: async () => {
          const p = validatePlugin(b.plugin);
          return { manifest: p.manifest, contributions: await setupInProcess(p, ctx) };
        },
      };
      await host.add(entry, on[id] ?? b.enabledByDefault);
      if (stale()) return;
    }

    // Discover → trust: only accepted contents reach the compiler and the sandbox.
    const scannedAt = wsfs.journal.seq;
    const code = await readWorkspaceCode(wsfs);
    if (stale()) return;
    const runnable = this.gate(code, scannedAt);
    if (stale()) return;

    const entryFor = (id: string, origin: string, source: string, kind: PluginSource): PluginEntry =>
      on[`trusted:${id}`]
        ? inProcessEntry({ name: id, origin, source, sourceKind: kind, ctx: { ...ctx, logger: logger(id) } })
        : sandboxedEntry({
            name: id,
            source,
            origin,
            sourceKind: kind,
            createWorker: this.opts.createWorker,
            // The agent's view: a sandboxed tool reads what the agent may read, hidden paths excluded.
            wsfs: session.extensions.workspaceView ?? wsfs,
            loadContext: { workspaceInfo: ctx.workspaceInfo, session: { id: session.id, mode: session.state.mode } },
            onLog: this.log(id),
            onSteer: (text) => session.steer(text),
          });
    const failing = (id: string, origin: string, error: string, kind: PluginSource): PluginEntry => ({ name: id, source: kind, origin, sandboxed: true, load: () => Promise.reject(new Error(error)) });

    for (const d of runnable.length ? await discoverPlugins(runnable) : []) {
      if (stale()) return;
      await host.add(d.error || !d.source ? failing(d.id, d.origin, d.error ?? "No source", "workspace") : entryFor(d.id, d.origin, d.source, "workspace"), on[d.id] ?? true);
    }
    for (const u of this.users.list()) {
      if (stale()) return;
      try {
        const source = u.fileName.endsWith(".ts") ? await compileTypeScript(u.source, u.fileName) : u.source;
        await host.add(entryFor(u.id, `installed: ${u.fileName}`, source, "user"), on[u.id] ?? true);
      } catch (e) {
        await host.add(failing(u.id, `installed: ${u.fileName}`, (e as Error).message, "user"));
      }
    }
    // MCP servers are remote: a slow one must not hold up the first run.
    for (const m of this.mcpServers.connections()) {
      if (stale()) return;
      void host.add(mcpEntry({ ...m, source: "user", origin: m.url }), on[`mcp:${m.name}`] ?? true);
    }
    if (!stale()) this.publish({ loading: false, statuses: host.list() });
  }

  /**
   * The trust step: fold the user's own edits into the accepted hashes, publish what waits for
   * a decision, and return the files that may run.
   */
  private gate(code: CodeFile[], scannedAt: number): CodeFile[] {
    this.acceptHandEdits(code, scannedAt);
    const record = this.trust.get();
    const declared = (path: string) => declaredByText(path, code.find((f) => f.path === path)?.text);
    if (record.decision !== "trusted") {
      const files = code.map((f): ReviewFile => ({ path: f.path, hash: f.hash, declared: declared(f.path) }));
      this.publish({ trust: { decision: record.decision ?? "undecided", provenance: this.opts.workspace.provenance, files } });
      return [];
    }
    const { unchanged, changes } = reviewCode(code, record.accepted);
    this.publish({ trust: { decision: "trusted", provenance: this.opts.workspace.provenance, files: changes.map((c) => ({ ...c, declared: declared(c.path) })) } });
    return unchanged;
  }

  /**
   * Accept, in a trusted workspace, the code files changed only by the user's own hands since
   * the last load. A path that anything else wrote (the agent, git, a restore) in the same
   * window — before or while it was read — is left for review.
   */
  private acceptHandEdits(code: CodeFile[], upTo: number) {
    const batch = this.codeEvents.filter((e) => e.seq <= upTo);
    this.codeEvents = this.codeEvents.filter((e) => e.seq > upTo);
    if (this.trust.get().decision !== "trusted" || !batch.some((e) => e.byHand)) return;
    const under = (path: string, touched: string) => path === touched || path.startsWith(`${touched}/`);
    const byOthers = [...batch, ...this.codeEvents].filter((e) => !e.byHand).map((e) => e.path);
    const byHand = batch.filter((e) => e.byHand).map((e) => e.path);
    const mine = (path: string) => byHand.some((t) => under(path, t)) && !byOthers.some((t) => under(path, t) || under(t, path));
    const changes: CodeChange[] = code.filter((f) => mine(f.path)).map((f) => ({ path: f.path, change: "changed", hash: f.hash }));
    for (const path of Object.keys(this.trust.get().accepted)) if (mine(path) && !code.some((f) => f.path === path)) changes.push({ path, change: "removed" });
    if (changes.length) this.trust.accept(changes);
  }

  // ---- intents -----------------------------------------------------------------------------

  /** Trust the workspace with exactly the code files shown to the user. */
  trustWorkspace(): void {
    const shown = this.snapshot.trust.files.filter((f) => f.hash !== undefined).map((f) => ({ path: f.path, hash: f.hash! }));
    this.trust.trust(shown);
    this.reload();
  }

  /** Keep the workspace restricted (the banner stops asking). */
  stayRestricted(): void {
    this.trust.restrict();
    this.publish({ trust: { ...this.snapshot.trust, decision: "restricted" } });
  }

  /** Revoke trust: every workspace plugin and hook is unloaded at once, then the rest reloads. */
  revokeTrust(): void {
    this.trust.restrict();
    for (const s of this.host?.list() ?? []) if (s.source === "workspace") this.host?.disable(s.name);
    this.reload();
  }

  /** Accept the changes shown for review (exactly the contents shown) and load them. */
  acceptChanges(): void {
    if (this.snapshot.trust.decision !== "trusted") return;
    this.trust.accept(this.snapshot.trust.files.map((f) => ({ path: f.path, change: f.change ?? "changed", hash: f.hash })));
    this.reload();
  }

  async setEnabled(name: string, enabled: boolean): Promise<void> {
    this.switches.set(name, enabled);
    if (enabled) await this.host?.enable(name);
    else this.host?.disable(name);
  }

  /** Opt in (or out) of running a workspace or user plugin in the page instead of its sandbox. */
  setInPage(name: string, inPage: boolean): void {
    this.switches.set(`trusted:${name}`, inPage);
    this.reload();
  }

  install(fileName: string, source: string): void {
    this.users.install(fileName, source);
    this.reload();
  }

  uninstall(id: string): void {
    this.users.remove(id);
    this.reload();
  }

  /** Throws a friendly error for a bad name or URL (nothing is saved then). */
  addMcpServer(name: string, url: string, token?: string): void {
    this.mcpServers.add(name, url, token);
    this.reload();
  }

  removeMcpServer(name: string): void {
    this.mcpServers.remove(name.replace(/^mcp:/, ""));
    this.reload();
  }
}
