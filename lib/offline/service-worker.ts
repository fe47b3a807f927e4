/**
 * The app's service worker, so that a revisited or installed Tabula opens and works with the
 * network off. Written here rather than with Serwist: Serwist's Next integration hooks webpack,
 * and this app builds with Turbopack; the rules needed are few and are tested directly
 * (test/offline/service-worker.test.ts runs `installServiceWorker` against fake caches).
 *
 * What is cached, and how:
 * - Pages (navigations): network first, so an online user always gets the current app; offline,
 *   the cached copy of that URL, else the cached workbench shell for any /w/<id> (the workbench
 *   reads its id from the address, so one shell serves every workspace), else the start page.
 * - The build's files (/_next/static/, hashed and immutable), the plugin sandbox runtime, the
 *   program runtimes' worker scripts (/runtimes/), the icons, the preview bundler's wasm
 *   (/esbuild/) and Pyodide's files (/pyodide/), the last two only once used: cache first, stored as fetched.
 *   Installing also stores the files the shell pages name in their HTML (and the chunks those
 *   scripts load lazily, one step), so the start page
 *   opens offline even if the user only ever loaded it for a moment.
 *   What the page loaded before this worker controlled it is sent over by the page
 *   (`{ type: "cache-urls" }`) so the first visit's chunks are kept too.
 * - Never: /api/ (shares, the git proxy), other origins, anything but GET, and worker scripts:
 *   Turbopack's worker bootstrap reads its chunk list from its own address's `#params=`
 *   fragment, and a worker whose script a service worker answers gets an address without it
 *   (the worker then fails "Missing worker bootstrap config"). Those scripts are immutable and
 *   long-cached, so the browser's HTTP cache still has them offline.
 * Each build has its own caches (named by build id); activating a new build drops the old
 * ones, except the Python runtime's, whose files change only with Pyodide.
 *
 * `installServiceWorker` is serialised into /sw.js by app/sw.js/route.ts: it must not use
 * anything from outside its own body.
 */

/** The parts of a ServiceWorkerGlobalScope this worker uses (so tests can pass a fake). */
export interface WorkerScope {
  location: { origin: string };
  caches: CacheStorage;
  clients: { claim(): Promise<void> };
  skipWaiting(): Promise<void>;
  fetch(request: Request | string): Promise<Response>;
  addEventListener(type: string, listener: (event: any) => void): void;
}

export function installServiceWorker(scope: WorkerScope, version: string): void {
  const PAGES = `tabula-pages-${version}`;
  const STATIC = `tabula-static-${version}`;
  const RUNTIMES = "tabula-runtimes";
  const SHELL = ["/", "/w/_"];

  const sameOrigin = (url: URL) => url.origin === scope.location.origin;
  const cacheFor = (url: URL): string | undefined => {
    if (!sameOrigin(url) || url.pathname.startsWith("/api/")) return undefined;
    if (url.pathname.startsWith("/pyodide/")) return RUNTIMES;
    // esbuild's wasm (the preview's bundler) with the build: its JS and wasm must be the same version.
    if (["/_next/static/", "/sandbox/", "/runtimes/", "/icons/", "/esbuild/"].some((prefix) => url.pathname.startsWith(prefix))) return STATIC;
    if (url.pathname === "/manifest.webmanifest" || url.pathname === "/icon.svg") return STATIC;
    return undefined;
  };

  const store = async (cacheName: string, request: Request | string, response: Response) => {
    // Only whole, successful answers of our own origin (no opaque or partial ones).
    if (!response.ok || response.status !== 200 || response.type === "opaque") return;
    const cache = await scope.caches.open(cacheName);
    await cache.put(request, response);
  };

  const cacheFirst = async (cacheName: string, request: Request) => {
    const cache = await scope.caches.open(cacheName);
    const hit = await cache.match(request);
    if (hit) return hit;
    const response = await scope.fetch(request);
    await store(cacheName, request, response.clone()).catch(() => undefined);
    return response;
  };

  const page = async (request: Request) => {
    const url = new URL(request.url);
    try {
      const response = await scope.fetch(request);
      if (response.ok) await store(PAGES, url.pathname, response.clone()).catch(() => undefined);
      return response;
    } catch (err) {
      const cache = await scope.caches.open(PAGES);
      const fallback =
        (await cache.match(url.pathname)) ?? (url.pathname.startsWith("/w/") ? await cache.match("/w/_") : undefined) ?? (await cache.match("/"));
      if (fallback) return fallback;
      throw err;
    }
  };

  /** Store one of our files unless it is there already (false: not one we keep, or unreachable). */
  const keep = async (raw: string): Promise<boolean> => {
    const url = new URL(raw, scope.location.origin);
    const cacheName = cacheFor(url);
    if (!cacheName) return false;
    const cache = await scope.caches.open(cacheName);
    if (await cache.match(url.href)) return true;
    try {
      await store(cacheName, url.href, await scope.fetch(url.href));
      return true;
    } catch {
      return false; // offline or gone: it is cached when next fetched
    }
  };

  // The build files a page names in its HTML: its script and style tags, and the chunks its
  // inline flight data lists (written there as "static/chunks/…", JSON-escaped).
  const ASSET = /(?<=["'])(?:\/_next\/)?static\/(?:chunks|css|media)\/[A-Za-z0-9_\-.~%/]+/g;
  const assetsNamedIn = (html: string): string[] => [...html.matchAll(ASSET)].map((m) => (m[0].startsWith("/") ? m[0] : `/_next/${m[0]}`));

  scope.addEventListener("install", (event) => {
    event.waitUntil(
      (async () => {
        const cache = await scope.caches.open(PAGES);
        const assets = new Set<string>();
        // The shell pages; a failure here (server gone mid-install) leaves the old worker in place.
        await Promise.all(
          SHELL.map(async (path) => {
            const response = await scope.fetch(path);
            if (!response.ok) throw new Error(`${path}: ${response.status}`);
            for (const asset of assetsNamedIn(await response.clone().text())) assets.add(asset);
            await cache.put(path, response);
          }),
        );
        // And the files those pages need to start, so each shell opens offline whichever page
        // the user happened to visit online (the page's own list, below, may never arrive: a
        // page left at once sends none).
        await Promise.all([...assets].map(keep));
        // One step further: what those scripts load lazily. The start page and the workbench are
        // dynamic imports of their pages' scripts, named only in that code ("static/chunks/…"),
        // and the page's own list (below) never comes when the page is left at once.
        const lazy = new Set<string>();
        for (const asset of assets) {
          if (!asset.endsWith(".js")) continue;
          const url = new URL(asset, scope.location.origin);
          const cacheName = cacheFor(url);
          const stored = cacheName ? await (await scope.caches.open(cacheName)).match(url.href) : undefined;
          if (!stored) continue;
          for (const next of assetsNamedIn(await stored.clone().text())) if (!assets.has(next)) lazy.add(next);
        }
        await Promise.all([...lazy].map(keep));
        await scope.skipWaiting();
      })(),
    );
  });

  scope.addEventListener("activate", (event) => {
    event.waitUntil(
      (async () => {
        for (const name of await scope.caches.keys()) {
          if (name.startsWith("tabula-") && name !== PAGES && name !== STATIC && name !== RUNTIMES) await scope.caches.delete(name);
        }
        await scope.clients.claim();
      })(),
    );
  });

  scope.addEventListener("fetch", (event) => {
    const request = event.request as Request;
    if (request.method !== "GET") return;
    if (request.destination === "worker" || request.destination === "sharedworker") return;
    const url = new URL(request.url);
    if (request.mode === "navigate" && sameOrigin(url) && !url.pathname.startsWith("/api/")) {
      event.respondWith(page(request));
      return;
    }
    const cacheName = cacheFor(url);
    if (cacheName) event.respondWith(cacheFirst(cacheName, request));
  });

  scope.addEventListener("message", (event) => {
    const data = event.data as { type?: string; urls?: unknown } | undefined;
    if (data?.type !== "cache-urls" || !Array.isArray(data.urls)) return;
    const port = event.ports?.[0] as MessagePort | undefined;
    event.waitUntil?.(
      (async () => {
        let cached = 0;
        for (const raw of data.urls as unknown[]) if (typeof raw === "string" && (await keep(raw))) cached++;
        port?.postMessage({ type: "cached", cached });
      })(),
    );
  });
}

/** The text of /sw.js for a build. */
export function serviceWorkerScript(version: string): string {
  return `"use strict";\n(${installServiceWorker.toString()})(self, ${JSON.stringify(version)});\n`;
}
