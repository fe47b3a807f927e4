/**
 * The app's end of one preview: it answers the host page's file requests from the workspace
 * (files.ts), passes on the previewed page's console and loads, and sends navigate / reload /
 * read-text. `connect` performs the handshake: the host page (preview origin, in an iframe) says
 * hello with its session; only that frame, from that origin, with that session, gets the port.
 * `capture` is what the agent's `preview` tool gets (through controller.ts): load a page, wait for
 * it and for late output, and report it.
 */
import type { PreviewPaneApi, PreviewSnapshot } from "./controller";
import { previewFile, type PreviewServing, type PreviewSource } from "./files";
import type { AppToHost, HostHello, HostToApp, PreviewConsoleEntry } from "./protocol";

export type PreviewEvents = {
  onReady(): void;
  onFailed(message: string): void;
  onConsole(entry: PreviewConsoleEntry): void;
  onLoaded(path: string): void;
};

export type PageText = { text: string; title: string; url: string };

/** How long a capture waits for the page to load, then for late output (timers, fetches). */
const LOAD_TIMEOUT_MS = 10_000;
const SETTLE_MS = 300;
const KEEP_CONSOLE = 500;

export class PreviewLink implements PreviewPaneApi {
  /** Settles once the host's service worker is active (after `onReady` has run). */
  readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;
  private port: MessagePort | null = null;
  private nextId = 1;
  private readonly reads = new Map<number, (t: PageText) => void>();
  /** The number of the latest navigate/reload sent (the host tags loads and output with it). */
  private nav = 0;
  private loads: Array<(nav: number) => void> = [];
  /** Recent console lines with the navigation they belong to (for the agent's report). */
  private logged: Array<{ entry: PreviewConsoleEntry; nav: number }> = [];
  private closed = false;

  constructor(
    private readonly source: PreviewSource,
    private readonly events: PreviewEvents,
    private readonly serving: PreviewServing = {},
  ) {
    this.ready = new Promise((resolve) => (this.markReady = resolve));
  }

  /** Hand a port to the host frame that says hello: `expected` is its window, origin and session. */
  connect(e: MessageEvent, expected: { window: Window | null; origin: string; session: string }): boolean {
    const hello = e.data as HostHello | null;
    if (this.port || this.closed || !expected.window || e.source !== expected.window || e.origin !== expected.origin) return false;
    if (hello?.type !== "tabula-preview-hello" || hello.session !== expected.session) return false;
    const channel = new MessageChannel();
    this.attach(channel.port1);
    expected.window.postMessage({ type: "tabula-preview-connect" }, expected.origin, [channel.port2]);
    return true;
  }

  /** Talk to a host over `port` (connect's end of the channel; tests hand one in directly). */
  attach(port: MessagePort): void {
    this.port = port;
    port.onmessage = (m) => void this.onHost(m.data as HostToApp);
  }

  navigate(path: string): number {
    this.send({ type: "navigate", path, nav: ++this.nav });
    return this.nav;
  }

  reload(): number {
    this.send({ type: "reload", nav: ++this.nav });
    return this.nav;
  }

  /** The previewed page's text as it shows now. */
  readText(timeoutMs = 5000): Promise<PageText> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.reads.delete(id);
        reject(new Error("the preview did not answer"));
      }, timeoutMs);
      this.reads.set(id, (t) => {
        clearTimeout(timer);
        resolve(t);
      });
      this.send({ type: "read-text", id });
    });
  }

  async capture(path: string | undefined, signal?: AbortSignal): Promise<PreviewSnapshot> {
    await this.ready;
    if (signal?.aborted) throw new Error("stopped");
    const mine = path === undefined ? this.reload() : this.navigate(path.startsWith("/") ? path : `/${path}`);
    // The load of this navigation (or of a later one: a save that reloads the page meanwhile), not
    // of one still finishing from before.
    await new Promise<void>((resolve, reject) => {
      const done = (e?: Error) => {
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        this.loads = this.loads.filter((l) => l !== onLoad);
        if (e) reject(e);
        else resolve();
      };
      const onLoad = (nav: number) => nav >= mine && done();
      const onAbort = () => done(new Error("stopped"));
      const timer = setTimeout(() => done(new Error(`the page did not finish loading in ${LOAD_TIMEOUT_MS / 1000} s`)), LOAD_TIMEOUT_MS);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.loads.push(onLoad);
    });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    const page = await this.readText();
    const last = this.nav; // what the page shows now: the latest navigation's output only
    return { url: `/${page.url}`, title: page.title, text: page.text, console: this.logged.filter((l) => l.nav === last).map((l) => l.entry) };
  }

  close(): void {
    this.closed = true;
    this.port?.close();
    this.port = null;
  }

  private send(m: AppToHost, transfer: Transferable[] = []): void {
    this.port?.postMessage(m, transfer);
  }

  private async onHost(m: HostToApp): Promise<void> {
    switch (m.type) {
      case "ready":
        this.events.onReady();
        return this.markReady();
      case "failed":
        return this.events.onFailed(m.message);
      case "console":
        this.logged.push({ entry: m.entry, nav: m.nav });
        if (this.logged.length > KEEP_CONSOLE) this.logged.shift();
        return this.events.onConsole(m.entry);
      case "loaded":
        for (const onLoad of [...this.loads]) onLoad(m.nav);
        return this.events.onLoaded(m.url);
      case "text":
        this.reads.get(m.id)?.({ text: m.text, title: m.title, url: m.url });
        this.reads.delete(m.id);
        return;
      case "file": {
        const answer = await previewFile(this.source, m.path, this.serving);
        return this.send({ type: "file", id: m.id, answer }, [answer.body]);
      }
    }
  }
}
