/**
 * The preview as the agent's `preview` tool reaches it: one controller per open workspace, which
 * the workbench creates, the preview pane attaches to while it is shown, and the agent's deps
 * hold. `show` opens the pane when it is closed (through `requestOpen`, the workbench's), loads
 * the page and reports what a person would see of it: its text, title, and what it logged.
 */
import type { PreviewSource } from "./files";
import type { PreviewConsoleEntry } from "./protocol";

export type PreviewSnapshot = {
  /** The path shown, from the site's root ("/index.html"). */
  url: string;
  title: string;
  text: string;
  console: PreviewConsoleEntry[];
};

/** What a shown preview pane offers. */
export interface PreviewPaneApi {
  /** Load `path` (or reload what is shown), wait for it, and report it. */
  capture(path: string | undefined, signal?: AbortSignal): Promise<PreviewSnapshot>;
}

/** What the agent's tool gets (lib/tools/preview.ts). */
export interface PreviewService {
  show(path: string | undefined, signal?: AbortSignal): Promise<PreviewSnapshot>;
}

const OPEN_TIMEOUT_MS = 15_000;

export class PreviewController implements PreviewService {
  private pane: PreviewPaneApi | null = null;
  private waiting: Array<(pane: PreviewPaneApi) => void> = [];
  /**
   * Where the preview reads the workspace: the agent's view of it while an agent session is open
   * (useAgent sets it), so a path the agent may not see (a .env under env-blocker) is not served
   * either — the agent reads the previewed page's text, and a page could fetch such a file and
   * print it. Null: the caller's own view.
   */
  source: PreviewSource | null = null;

  constructor(private readonly requestOpen: () => void) {}

  /** The pane is shown (or gone: null). */
  attach(pane: PreviewPaneApi | null): void {
    this.pane = pane;
    if (!pane) return;
    const waiting = this.waiting;
    this.waiting = [];
    for (const resolve of waiting) resolve(pane);
  }

  async show(path: string | undefined, signal?: AbortSignal): Promise<PreviewSnapshot> {
    const pane = this.pane ?? (await this.open(signal));
    return pane.capture(path, signal);
  }

  private open(signal?: AbortSignal): Promise<PreviewPaneApi> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = this.waiting.filter((w) => w !== got);
        reject(new Error("the preview did not open"));
      }, OPEN_TIMEOUT_MS);
      const got = (pane: PreviewPaneApi) => {
        clearTimeout(timer);
        resolve(pane);
      };
      signal?.addEventListener("abort", () => {
        clearTimeout(timer);
        this.waiting = this.waiting.filter((w) => w !== got);
        reject(new Error("stopped"));
      }, { once: true });
      this.waiting.push(got);
      this.requestOpen();
    });
  }
}
