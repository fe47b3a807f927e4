/**
 * The app's end of one preview: it answers the host page's file requests from the workspace
 * (files.ts), passes on the previewed page's console and loads, and sends navigate / reload /
 * read-text. `connect` performs the handshake: the host page (preview origin, in an iframe) says
 * hello with its session; only that frame, from that origin, with that session, gets the port.
 */
import { previewFile, type PreviewSource } from "./files";
import type { AppToHost, HostHello, HostToApp, PreviewConsoleEntry } from "./protocol";

export type PreviewEvents = {
  onReady(): void;
  onFailed(message: string): void;
  onConsole(entry: PreviewConsoleEntry): void;
  onLoaded(path: string): void;
};

export type PageText = { text: string; title: string; url: string };

export class PreviewLink {
  private port: MessagePort | null = null;
  private nextId = 1;
  private readonly reads = new Map<number, (t: PageText) => void>();
  private closed = false;

  constructor(
    private readonly source: PreviewSource,
    private readonly events: PreviewEvents,
  ) {}

  /** Hand a port to the host frame that says hello: `expected` is its window, origin and session. */
  connect(e: MessageEvent, expected: { window: Window | null; origin: string; session: string }): boolean {
    const hello = e.data as HostHello | null;
    if (this.port || this.closed || !expected.window || e.source !== expected.window || e.origin !== expected.origin) return false;
    if (hello?.type !== "tabula-preview-hello" || hello.session !== expected.session) return false;
    const channel = new MessageChannel();
    this.port = channel.port1;
    this.port.onmessage = (m) => void this.onHost(m.data as HostToApp);
    expected.window.postMessage({ type: "tabula-preview-connect" }, expected.origin, [channel.port2]);
    return true;
  }

  navigate(path: string): void {
    this.send({ type: "navigate", path });
  }

  reload(): void {
    this.send({ type: "reload" });
  }

  /** The previewed page's text as it shows now (for the agent, and for tests). */
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
        return this.events.onReady();
      case "failed":
        return this.events.onFailed(m.message);
      case "console":
        return this.events.onConsole(m.entry);
      case "loaded":
        return this.events.onLoaded(m.url);
      case "text":
        this.reads.get(m.id)?.({ text: m.text, title: m.title, url: m.url });
        this.reads.delete(m.id);
        return;
      case "file": {
        const answer = await previewFile(this.source, m.path);
        return this.send({ type: "file", id: m.id, answer }, [answer.body]);
      }
    }
  }
}
