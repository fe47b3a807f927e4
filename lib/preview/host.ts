/**
 * The preview host page (served at /preview/host?session=… on the preview origin by
 * app/preview/host/route.ts): the app embeds it in an iframe; it registers the preview's service
 * worker, takes the MessagePort the app hands it, and shows the previewed page in a frame of its
 * own. It relays: the service worker's file requests to the app, the previewed page's console to
 * the app, and the app's navigate / reload / read-text to the frame.
 *
 * `installPreviewHost` is serialised into the page: it must not use anything from outside its own
 * body.
 */
export function installPreviewHost(win: Window, workerPath: string): void {
  const session = new URLSearchParams(win.location.search).get("session") ?? "";
  const frame = win.document.getElementById("content") as HTMLIFrameElement;
  let app: MessagePort | null = null;
  let nextId = 1;
  const waiting = new Map<number, MessagePort>();
  let path = "";
  let nav = 0;

  const show = (p: string) => {
    path = p.replace(/^\/+/, "");
    frame.src = `/preview/${session}/${path}`;
  };

  const onApp = (e: MessageEvent) => {
    const m = e.data as { type?: string; id?: number; answer?: { body: ArrayBuffer }; path?: string; nav?: number } | null;
    if (!m) return;
    if (m.type === "file" && typeof m.id === "number" && m.answer) {
      const reply = waiting.get(m.id);
      waiting.delete(m.id);
      reply?.postMessage(m.answer, [m.answer.body]);
      reply?.close();
    } else if (m.type === "navigate" && typeof m.path === "string") {
      nav = Number(m.nav) || 0;
      show(m.path);
    } else if (m.type === "reload") {
      // Load the page again by its address rather than location.reload(): a reload would reload
      // the document still shown and cancel a navigation that has not finished yet.
      nav = Number(m.nav) || 0;
      show(path);
    } else if (m.type === "read-text" && typeof m.id === "number") {
      const doc = frame.contentDocument;
      app?.postMessage({ type: "text", id: m.id, text: doc?.body?.innerText ?? "", title: doc?.title ?? "", url: path });
    }
  };

  win.addEventListener("message", (e) => {
    const d = e.data as { type?: string; entry?: unknown } | null;
    if (e.source === win.parent && d?.type === "tabula-preview-connect" && e.ports[0] && !app) {
      app = e.ports[0];
      app.onmessage = onApp;
      void start();
    } else if (e.source === frame.contentWindow && d?.type === "tabula-preview-console") {
      app?.postMessage({ type: "console", entry: d.entry, nav });
    }
  });

  win.navigator.serviceWorker.addEventListener("message", (e) => {
    const d = e.data as { type?: string; path?: string } | null;
    if (d?.type !== "tabula-preview-file" || typeof d.path !== "string" || !e.ports[0] || !app) return;
    const id = nextId++;
    waiting.set(id, e.ports[0]);
    app.postMessage({ type: "file", id, path: d.path });
  });

  // Where the page really is now (it may have followed a link of its own): a reload comes back here.
  frame.addEventListener("load", () => {
    try {
      const here = frame.contentWindow?.location;
      const prefix = `/preview/${session}/`;
      if (here && here.pathname.startsWith(prefix)) path = here.pathname.slice(prefix.length) + here.search;
    } catch {
      // Another origin (a link that left the preview): keep the last known path.
    }
    app?.postMessage({ type: "loaded", url: path, nav });
  });

  async function start() {
    try {
      await win.navigator.serviceWorker.register(workerPath, { scope: "/preview/" });
      await win.navigator.serviceWorker.ready;
      app?.postMessage({ type: "ready" });
    } catch (err) {
      app?.postMessage({ type: "failed", message: String((err as Error)?.message ?? err) });
    }
  }

  win.parent.postMessage({ type: "tabula-preview-hello", session }, "*");
}

export function previewHostPage(workerPath: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Tabula preview</title><style>html,body,iframe{margin:0;border:0;width:100%;height:100%;display:block;background:#fff}</style></head><body><iframe id="content" title="Previewed page"></iframe><script>(${installPreviewHost.toString()})(window, ${JSON.stringify(workerPath)});</script></body></html>`;
}
