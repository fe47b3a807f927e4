/**
 * The script put at the top of every HTML page the preview serves: it reports the page's console
 * calls, uncaught errors and rejections, and resources or fetches that failed, to the preview host
 * page (its parent, same origin), which forwards them to the app's Preview console. It only
 * observes: each console method still does what it did.
 *
 * `previewConsoleHook` is serialised into the page as text: it must not use anything from outside
 * its own body.
 */
export function previewConsoleHook(): void {
  const w = window as unknown as Window & { __tabulaPreviewHooked?: boolean };
  if (w.__tabulaPreviewHooked || w.parent === w) return;
  w.__tabulaPreviewHooked = true;
  const show = (v: unknown): string => {
    if (typeof v === "string") return v;
    if (v instanceof Error) return `${v.name}: ${v.message}`;
    try {
      const s = JSON.stringify(v);
      return s === undefined ? String(v) : s;
    } catch {
      return String(v);
    }
  };
  const send = (level: string, source: string, text: string) => {
    try {
      w.parent.postMessage({ type: "tabula-preview-console", entry: { level, source, text: text.slice(0, 4000), at: Date.now() } }, "*");
    } catch {
      // The host is gone: nothing to tell.
    }
  };
  const c = console as unknown as Record<string, (...args: unknown[]) => void>;
  for (const level of ["log", "info", "warn", "error", "debug"]) {
    const original = c[level];
    c[level] = function (...args: unknown[]) {
      send(level, "console", args.map(show).join(" "));
      return original.apply(this, args);
    };
  }
  w.addEventListener("error", (e: Event) => {
    const ev = e as ErrorEvent;
    const target = e.target as (Element & { src?: string; href?: string }) | null;
    if (target && target !== (w as unknown) && target instanceof Element) {
      send("error", "request", `Failed to load ${target.tagName.toLowerCase()} ${target.src || target.href || ""}`.trim());
      return;
    }
    const where = ev.filename ? ` (${ev.filename.replace(/^[^/]*\/\/[^/]+\/preview\/[^/]+\//, "")}:${ev.lineno}:${ev.colno})` : "";
    send("error", "error", `Uncaught ${ev.error ? show(ev.error) : ev.message}${where}`);
  }, true);
  w.addEventListener("unhandledrejection", (e: PromiseRejectionEvent) => send("error", "error", `Uncaught (in promise) ${show(e.reason)}`));
  const originalFetch = w.fetch.bind(w);
  w.fetch = async (...args: Parameters<typeof fetch>) => {
    try {
      const r = await originalFetch(...args);
      if (!r.ok) send("error", "request", `${r.status} ${r.statusText || ""} ${r.url}`.replace(/\s+/g, " ").trim());
      return r;
    } catch (err) {
      send("error", "request", `fetch failed: ${show(args[0] instanceof Request ? args[0].url : args[0])} (${show(err)})`);
      throw err;
    }
  };
}

/** The hook as a script tag, put first in an HTML document's head (or at its start). */
export function withConsoleHook(html: string): string {
  const tag = `<script>(${previewConsoleHook.toString()})()</script>`;
  const head = /<head[^>]*>/i.exec(html);
  if (head) return html.slice(0, head.index + head[0].length) + tag + html.slice(head.index + head[0].length);
  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  if (doctype) return doctype[0] + tag + html.slice(doctype[0].length);
  return tag + html;
}
