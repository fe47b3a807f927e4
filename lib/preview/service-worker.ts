/**
 * The preview origin's service worker (served at /preview/sw.js by app/preview/sw.js/route.ts,
 * on the preview origin only). It answers every request for `/preview/<session>/<path>` — and a
 * previewed page's root-absolute ones, `/<path>`, as its session's — with the workspace file, which it asks of the preview host page of that session (host.ts), which asks
 * the app page. It keeps no state of its own: a browser may stop an idle service worker at any
 * moment, so each request finds its host again among the worker's clients. It keeps one copy of
 * the host page (the same page for every session) so that the preview opens offline.
 *
 * `installPreviewServiceWorker` is serialised into the script: it must not use anything from
 * outside its own body.
 */

/** The parts of a ServiceWorkerGlobalScope this worker uses (so tests can pass a fake). */
export interface PreviewWorkerScope {
  location: { origin: string };
  clients: {
    claim(): Promise<void>;
    matchAll(options: { type: "window"; includeUncontrolled: boolean }): Promise<ReadonlyArray<{ url: string; postMessage(message: unknown, transfer: Transferable[]): void }>>;
  };
  skipWaiting(): Promise<void>;
  addEventListener(type: string, listener: (event: any) => void): void;
  fetch(request: Request): Promise<Response>;
  caches?: CacheStorage;
}

export function installPreviewServiceWorker(scope: PreviewWorkerScope, hostPath: string): void {
  const CONTENT = /^\/preview\/([A-Za-z0-9_-]{8,64})\/(.*)$/;
  const TIMEOUT_MS = 30_000;

  const plain = (status: number, text: string) => new Response(text, { status, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store", "Cross-Origin-Embedder-Policy": "credentialless", "Cross-Origin-Resource-Policy": "same-origin" } });

  const answer = async (session: string, path: string): Promise<Response> => {
    const clients = await scope.clients.matchAll({ type: "window", includeUncontrolled: true });
    const host = clients.find((c) => {
      const u = new URL(c.url);
      return u.pathname === hostPath && u.searchParams.get("session") === session;
    });
    if (!host) return plain(503, "This preview is closed: open it again from Tabula.");
    const channel = new MessageChannel();
    const reply = new Promise<{ status: number; contentType: string; body: ArrayBuffer } | null>((resolve) => {
      const timer = setTimeout(() => resolve(null), TIMEOUT_MS);
      channel.port1.onmessage = (e) => {
        clearTimeout(timer);
        resolve(e.data);
      };
    });
    host.postMessage({ type: "tabula-preview-file", path }, [channel.port2]);
    const a = await reply;
    channel.port1.close();
    if (!a) return plain(504, "Tabula did not answer in time.");
    return new Response(a.body, {
      status: a.status,
      headers: {
        "Content-Type": a.contentType,
        // Every load reads the workspace as it is now.
        "Cache-Control": "no-store",
        // The page sits under the app's cross-origin isolation; credentialless lets it still load
        // other sites' images and scripts (without cookies), as an ordinary page would.
        "Cross-Origin-Embedder-Policy": "credentialless",
        "Cross-Origin-Resource-Policy": "same-origin",
      },
    });
  };

  /** The host page: the network, else (offline) the copy kept from the last visit, whatever its session. */
  const HOST_CACHE = "tabula-preview-host";
  const hostPage = async (request: Request): Promise<Response> => {
    try {
      const fresh = await scope.fetch(request);
      if (fresh.ok && scope.caches) await (await scope.caches.open(HOST_CACHE)).put(hostPath, fresh.clone());
      return fresh;
    } catch (err) {
      const kept = scope.caches ? await (await scope.caches.open(HOST_CACHE)).match(hostPath) : undefined;
      if (kept) return kept;
      throw err;
    }
  };

  scope.addEventListener("install", () => void scope.skipWaiting());
  scope.addEventListener("activate", (event) => event.waitUntil(scope.clients.claim()));
  scope.addEventListener("fetch", (event) => {
    const url = new URL(event.request.url);
    if (url.origin !== scope.location.origin) return; // other sites: the network, as for any page
    const m = CONTENT.exec(url.pathname);
    if (m) return event.respondWith(answer(m[1], m[2]));
    // A root-absolute address in a previewed page ("/src/main.tsx", as Vite's templates write):
    // the site's root is its session's folder, found from the page that asked.
    if (url.pathname === hostPath) return event.respondWith(hostPage(event.request));
    if (url.pathname.startsWith("/preview/")) return; // this script: the network
    let from: RegExpExecArray | null = null;
    try {
      const ref = new URL(event.request.referrer);
      if (ref.origin === scope.location.origin) from = CONTENT.exec(ref.pathname);
    } catch {
      /* no referrer: not a previewed page's request */
    }
    if (!from) return;
    const inSite = `/preview/${from[1]}${url.pathname}${url.search}`;
    // A link to "/about": the page's address moves into the site, so its own requests find it too.
    if (event.request.mode === "navigate") return event.respondWith(Response.redirect(`${scope.location.origin}${inSite}`, 302));
    event.respondWith(answer(from[1], url.pathname.slice(1)));
  });
}

export function previewServiceWorkerScript(hostPath: string): string {
  return `(${installPreviewServiceWorker.toString()})(self, ${JSON.stringify(hostPath)});\n`;
}
