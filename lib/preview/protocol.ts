/**
 * What crosses between the three parts of the web preview:
 *
 *   app page (app origin) ── MessagePort ── preview host page (preview origin, in an iframe)
 *                                            └─ service worker (preview origin) ── the previewed page
 *
 * The previewed page is the workspace's own HTML/CSS/JS, so it runs on an origin other than the
 * app's (a second port of the same server, lib/preview/origin.ts): it cannot read the app's
 * IndexedDB, localStorage or caches. Its files come from the app page, which reads them from the
 * workspace: the service worker asks the host page (its client), the host asks the app over the
 * port it was handed. Everything is structured-cloneable.
 */

/** The path prefix the preview origin serves; `/preview/<session>/<file path>` is a workspace file. */
export const PREVIEW_PREFIX = "/preview/";
export const PREVIEW_HOST_PATH = "/preview/host";
export const PREVIEW_WORKER_PATH = "/preview/sw.js";

/** A file the app answers for the previewed page. */
export type PreviewFileAnswer = { status: number; contentType: string; body: ArrayBuffer };

/** The host page to the app (window messages, before the port exists). */
export type HostHello = { type: "tabula-preview-hello"; session: string };

/** On the port, host → app. */
export type HostToApp =
  /** The service worker is active: the host can show pages. */
  | { type: "ready" }
  | { type: "failed"; message: string }
  | { type: "file"; id: number; path: string }
  /** `nav`: the number of the navigate/reload that this load or output belongs to. */
  | { type: "loaded"; url: string; nav: number }
  | { type: "console"; entry: PreviewConsoleEntry; nav: number }
  | { type: "text"; id: number; text: string; title: string; url: string };

/** On the port, app → host. */
export type AppToHost =
  | { type: "file"; id: number; answer: PreviewFileAnswer }
  /** `nav` numbers each navigation, so a load (or a line of output) is told from an earlier one's. */
  | { type: "navigate"; path: string; nav: number }
  | { type: "reload"; nav: number }
  | { type: "read-text"; id: number };

/** One line of the previewed page's console, an uncaught error, or a request that failed. */
export type PreviewConsoleEntry = {
  level: "log" | "info" | "warn" | "error" | "debug";
  /** console: a console call; error: uncaught error or rejection; request: a resource that failed to load. */
  source: "console" | "error" | "request";
  text: string;
  at: number;
};
