/**
 * Keeps the editor's TypeScript service fed with the workspace: every TS/JS source, the
 * compiler options of tsconfig.json / jsconfig.json, and (lazily, within a budget) the
 * declarations under node_modules. It follows the workspace's change journal, so files that
 * the terminal, the agent, git or the tree create, change, move or delete are seen at once.
 *
 * The `sink` is where it all goes (Monaco's models and extra libs in the browser, a recorder in
 * tests); this class only decides what to read and when.
 */
import type { ChangeEvent } from "../fs/journal";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { CONFIG_FILES, DEFAULT_COMPILER_OPTIONS, loadCompilerOptions, type TsCompilerOptions } from "./ts-config";
import { isTsSource, isTypeFile, planTypeFiles, TS_LIMITS } from "./ts-sources";
import { timeSlicer } from "../scheduling/time-slice";

/** Sources read at once when the whole workspace is (re)read. */
const SOURCE_READ_GROUP = 64;

type LoadedSource = { kind: "text"; text: string } | { kind: "too-large" } | { kind: "over-limit" } | { kind: "none" };

export interface TsSink {
  /** A workspace source with its text on disk (created or changed). */
  setSource(path: string, text: string): void;
  removeSource(path: string): void;
  /** The whole set of node_modules declarations (replaces the previous set). */
  setTypeFiles(files: { path: string; text: string }[]): void;
  setCompilerOptions(options: TsCompilerOptions, configPath: string | undefined, errors: string[]): void;
  /** What was left out to stay within the limits, for the user to know. */
  notice?(message: string | undefined): void;
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir + "/");
}

export class TsWorkspaceSync {
  private sources = new Set<string>();
  /** Every config file the current options came from (the one in use and what it extends): a change to any re-reads them. */
  private configFiles = new Set<string>();
  private unsubscribe: (() => void) | undefined;
  private pending: ChangeEvent[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;
  private lastSeq = 0;
  private stopped = false;
  /** One batch at a time, in order: a rescan must not interleave with a later delete. */
  private queue: Promise<void> = Promise.resolve();
  private typesLoaded = false;
  private limitNotes = { sources: 0, types: 0 };

  constructor(
    private readonly wsfs: WorkspaceFs,
    private readonly sink: TsSink,
    private readonly opts: { batchMs?: number; limits?: typeof TS_LIMITS } = {},
  ) {}

  /** Read everything once, then follow the journal. Resolves when the sources are fed (types follow later). */
  async start(): Promise<void> {
    this.lastSeq = this.wsfs.journal.seq;
    this.unsubscribe = this.wsfs.journal.subscribe((e) => {
      this.pending.push(e);
      clearTimeout(this.flushTimer);
      this.flushTimer = setTimeout(() => this.flush(), this.opts.batchMs ?? 80);
    });
    await this.enqueue(() => this.rescan());
  }

  stop(): void {
    this.stopped = true;
    this.unsubscribe?.();
    clearTimeout(this.flushTimer);
  }

  /** Everything again (another tab changed files this journal never saw). */
  resync(): Promise<void> {
    return this.enqueue(() => this.rescan());
  }

  /** The journal could not vouch for what happened since the last batch (another tab wrote). */
  get outOfDate(): boolean {
    return this.wsfs.journal.since(this.lastSeq) === undefined;
  }

  /** Apply the batched journal events now (tests; otherwise a timer does it). */
  flush(): Promise<void> {
    clearTimeout(this.flushTimer);
    const events = this.pending;
    this.pending = [];
    if (events.length === 0) return this.queue;
    return this.enqueue(() => this.apply(events));
  }

  /** node_modules declarations, read on first need (the browser calls this once the editor is idle). */
  loadTypes(): Promise<void> {
    this.typesLoaded = true;
    return this.enqueue(() => this.readTypes());
  }

  private enqueue(step: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(() => (this.stopped ? undefined : step())).catch((e) => console.error("TypeScript workspace sync:", e));
    return this.queue;
  }

  private async rescan(): Promise<void> {
    this.lastSeq = this.wsfs.journal.seq;
    const all = await this.wsfs.listFiles();
    const wanted = all.filter(isTsSource);
    const wantedSet = new Set(wanted);
    for (const gone of [...this.sources]) if (!wantedSet.has(gone)) this.drop(gone);
    this.limitNotes.sources = 0;
    await this.readSources(wanted);
    await this.readConfig();
    if (this.typesLoaded) await this.readTypes(all);
    this.note();
  }

  private async apply(events: ChangeEvent[]): Promise<void> {
    this.lastSeq = Math.max(this.lastSeq, ...events.map((e) => e.seq));
    let config = false;
    let types = false;
    const reread = new Set<string>();
    for (const e of events) {
      const touched = e.from !== undefined ? [e.from, e.path] : [e.path];
      for (const p of touched) {
        if (CONFIG_FILES.some((c) => p === c || under(c, p)) || [...this.configFiles].some((c) => p === c || under(c, p))) config = true;
        if (p === "node_modules" || p.endsWith("/node_modules") || p.includes("node_modules/")) types = true;
      }
      if (e.kind === "delete" || e.kind === "rename") {
        const gone = e.kind === "rename" ? e.from! : e.path;
        for (const s of [...this.sources]) if (under(s, gone)) this.drop(s);
      }
      if (e.kind === "write" || e.kind === "rename" || e.kind === "mkdir") reread.add(e.path);
    }
    for (const p of reread) {
      const st = await this.wsfs.stat(p);
      if (!st) continue;
      if (st.type === "dir") {
        for (const f of await this.wsfs.listFiles(p)) if (isTsSource(f)) await this.readSource(f);
      } else if (isTsSource(p)) await this.readSource(p);
    }
    if (config) await this.readConfig();
    if (types && this.typesLoaded) await this.readTypes();
    this.note();
  }

  private drop(path: string) {
    this.sources.delete(path);
    this.sink.removeSource(path);
  }

  /**
   * Many sources: read SOURCE_READ_GROUP at a time (the workspace's store answers waiting reads
   * in one transaction: a 3,000-file project is read in dozens of round trips, not thousands)
   * and fed in order, giving the page a turn between files so that opening a big project does
   * not freeze the editor.
   */
  private async readSources(paths: string[]): Promise<void> {
    const slicer = timeSlicer();
    for (let i = 0; i < paths.length && !this.stopped; i += SOURCE_READ_GROUP) {
      const group = paths.slice(i, i + SOURCE_READ_GROUP);
      const loaded = await Promise.all(group.map((p) => this.loadSource(p)));
      for (let k = 0; k < group.length && !this.stopped; k++) {
        this.takeSource(group[k]!, loaded[k]!);
        await slicer.maybeYield();
      }
    }
  }

  private async readSource(path: string): Promise<void> {
    this.takeSource(path, await this.loadSource(path));
  }

  private async loadSource(path: string): Promise<LoadedSource> {
    const limits = this.opts.limits ?? TS_LIMITS;
    if (!this.sources.has(path) && this.sources.size >= limits.maxSources) return { kind: "over-limit" };
    const st = await this.wsfs.stat(path);
    if (!st || st.type !== "file") return { kind: "none" };
    if (st.size > limits.maxSourceBytes) return { kind: "too-large" };
    try {
      return { kind: "text", text: await this.wsfs.readText(path) };
    } catch {
      return { kind: "none" }; // vanished, or hidden from this view
    }
  }

  private takeSource(path: string, loaded: LoadedSource): void {
    const limits = this.opts.limits ?? TS_LIMITS;
    // The limit is checked again here: sources read together were all under it when read.
    if (loaded.kind === "over-limit" || (loaded.kind === "text" && !this.sources.has(path) && this.sources.size >= limits.maxSources)) {
      this.limitNotes.sources++;
      return;
    }
    if (loaded.kind === "too-large") {
      if (this.sources.has(path)) this.drop(path);
      this.limitNotes.sources++;
      return;
    }
    if (loaded.kind !== "text") return;
    this.sources.add(path);
    this.sink.setSource(path, loaded.text);
  }

  private async readConfig(): Promise<void> {
    for (const configPath of CONFIG_FILES) {
      if (!(await this.wsfs.exists(configPath))) continue;
      let text: string;
      try {
        text = await this.wsfs.readText(configPath);
      } catch (e) {
        this.sink.setCompilerOptions(DEFAULT_COMPILER_OPTIONS, configPath, [`${configPath}: ${(e as Error).message}`]);
        return;
      }
      const { options, errors, files } = await loadCompilerOptions(configPath, async (p) => (p === configPath ? text : (await this.wsfs.exists(p)) ? await this.wsfs.readText(p).catch(() => null) : null));
      this.configFiles = new Set(files);
      this.sink.setCompilerOptions(options, configPath, errors);
      return;
    }
    this.configFiles = new Set();
    this.sink.setCompilerOptions(DEFAULT_COMPILER_OPTIONS, undefined, []);
  }

  private async readTypes(all?: string[]): Promise<void> {
    if (!(await this.wsfs.exists("node_modules"))) {
      this.sink.setTypeFiles([]);
      this.limitNotes.types = 0;
      return;
    }
    const candidates = (all ?? (await this.wsfs.listFiles("node_modules"))).filter(isTypeFile);
    const sized: { path: string; size: number }[] = [];
    for (const path of candidates) {
      const st = await this.wsfs.stat(path);
      if (st?.type === "file") sized.push({ path, size: st.size });
    }
    const plan = planTypeFiles(sized, this.opts.limits ?? TS_LIMITS);
    const files: { path: string; text: string }[] = [];
    for (const path of plan.take) {
      try {
        files.push({ path, text: await this.wsfs.readText(path) });
      } catch {
        // vanished while reading: the next change event reads the set again
      }
    }
    this.limitNotes.types = plan.skipped;
    this.sink.setTypeFiles(files);
  }

  private note() {
    const { sources, types } = this.limitNotes;
    const parts: string[] = [];
    if (sources) parts.push(`${sources} source file${sources === 1 ? "" : "s"} left out (over ${(this.opts.limits ?? TS_LIMITS).maxSources} files or 1 MB each)`);
    if (types) parts.push(`${types} node_modules declaration file${types === 1 ? "" : "s"} left out (type budget)`);
    this.sink.notice?.(parts.length ? `Code intelligence: ${parts.join("; ")}.` : undefined);
  }
}
