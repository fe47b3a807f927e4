/** The offline service worker's rules, run against fake caches and a fake network. */
import { describe, expect, it } from "vitest";
import { installServiceWorker, serviceWorkerScript, type WorkerScope } from "../../lib/offline/service-worker";

const ORIGIN = "http://127.0.0.1:3000";

class FakeCache {
  entries = new Map<string, Response>();
  private key(r: Request | string) {
    return new URL(typeof r === "string" ? r : r.url, ORIGIN).href;
  }
  async match(r: Request | string) {
    return this.entries.get(this.key(r))?.clone();
  }
  async put(r: Request | string, res: Response) {
    this.entries.set(this.key(r), res);
  }
}

function world(version = "b1", pages: Record<string, string> = {}) {
  const stores = new Map<string, FakeCache>();
  const caches = {
    async open(name: string) {
      if (!stores.has(name)) stores.set(name, new FakeCache());
      return stores.get(name)!;
    },
    async keys() {
      return [...stores.keys()];
    },
    async delete(name: string) {
      return stores.delete(name);
    },
  } as unknown as CacheStorage;
  let online = true;
  const served: string[] = [];
  const handlers = new Map<string, (e: any) => void>();
  const scope: WorkerScope = {
    location: { origin: ORIGIN },
    caches,
    clients: { claim: async () => undefined },
    skipWaiting: async () => undefined,
    async fetch(r) {
      const url = new URL(typeof r === "string" ? r : r.url, ORIGIN);
      if (!online) throw new TypeError("Failed to fetch");
      served.push(url.pathname);
      if (url.pathname === "/missing.js" || url.pathname.endsWith("/gone.js")) return new Response("nope", { status: 404 });
      if (pages[url.pathname]) return new Response(pages[url.pathname], { status: 200, headers: { "Content-Type": "text/html" } });
      return new Response(`body of ${url.pathname} (${version})`, { status: 200, headers: { "Cross-Origin-Embedder-Policy": "require-corp" } });
    },
    addEventListener: (type, fn) => void handlers.set(type, fn),
  };
  installServiceWorker(scope, version);
  const dispatch = async (type: string, init: Record<string, unknown> = {}) => {
    let waited: Promise<unknown> | undefined;
    let responded: Promise<Response> | undefined;
    handlers.get(type)!({ ...init, waitUntil: (p: Promise<unknown>) => (waited = p), respondWith: (p: Promise<Response>) => (responded = p) });
    await waited;
    return responded;
  };
  const request = (path: string, mode: RequestMode | "navigate" = "cors", destination = "script") => {
    const r = new Request(new URL(path, ORIGIN));
    Object.defineProperty(r, "mode", { value: mode });
    Object.defineProperty(r, "destination", { value: destination });
    return r;
  };
  return {
    stores,
    served,
    scope,
    dispatch,
    setOnline: (v: boolean) => (online = v),
    get: async (path: string, mode?: RequestMode | "navigate", destination?: string) => dispatch("fetch", { request: request(path, mode, destination) }),
  };
}

describe("offline service worker", () => {
  it("install caches the start page and the workbench shell; activate drops other builds' caches but keeps the runtimes'", async () => {
    const w = world("b2");
    for (const old of ["tabula-pages-b1", "tabula-static-b1", "tabula-runtimes", "someone-else"]) await w.scope.caches.open(old);
    await w.dispatch("install");
    await w.dispatch("activate");
    expect([...w.stores.keys()].sort()).toEqual(["someone-else", "tabula-pages-b2", "tabula-runtimes"]);
    const pages = w.stores.get("tabula-pages-b2")!;
    expect([...pages.entries.keys()]).toEqual([`${ORIGIN}/`, `${ORIGIN}/w/_`]);
  });

  it("install also keeps the build files the shell pages name, so the start page opens offline without having been left running", async () => {
    const start =
      '<link rel="stylesheet" href="/_next/static/css/start.css"><script src="/_next/static/chunks/main.js" async></script>' +
      '<script>self.__next_f.push([1,"2:I[123,[\\"static/chunks/start-page.js\\",\\"static/chunks/gone.js\\"],\\"StartPage\\"]"])</script>' +
      '<a href="/api/shares">x</a><img src="https://cdn.example.com/static/chunks/elsewhere.js">';
    const w = world("b1", { "/": start, "/w/_": '<script src="/_next/static/chunks/main.js"></script><script src="/_next/static/chunks/workbench.js"></script>' });
    await w.dispatch("install");
    const statics = [...w.stores.get("tabula-static-b1")!.entries.keys()].map((k) => new URL(k).pathname).sort();
    expect(statics).toEqual(["/_next/static/chunks/main.js", "/_next/static/chunks/start-page.js", "/_next/static/chunks/workbench.js", "/_next/static/css/start.css"]);
    w.setOnline(false);
    expect(await (await w.get("/", "navigate"))!.text()).toBe(start);
    expect(await (await w.get("/_next/static/chunks/start-page.js"))!.text()).toContain("start-page.js");
  });

  it("install follows the shell scripts' lazy imports one step: the start page behind its loader opens offline", async () => {
    const w = world("b1", {
      "/": '<script src="/_next/static/chunks/loader.js"></script>',
      "/w/_": '<script src="/_next/static/chunks/main.js"></script>',
      // The loader names the start page's chunk in its code; that chunk names one more (two steps: not kept).
      "/_next/static/chunks/loader.js": 'e.v(t=>Promise.all(["static/chunks/start-page.js","static/chunks/gone.js"].map(t)))',
      "/_next/static/chunks/start-page.js": 'import("static/chunks/monaco-deep.js")',
    });
    await w.dispatch("install");
    const statics = [...w.stores.get("tabula-static-b1")!.entries.keys()].map((k) => new URL(k).pathname).sort();
    expect(statics).toEqual(["/_next/static/chunks/loader.js", "/_next/static/chunks/main.js", "/_next/static/chunks/start-page.js"]);
    w.setOnline(false);
    expect(await (await w.get("/_next/static/chunks/start-page.js"))!.text()).toContain("monaco-deep.js");
  });

  it("pages: network first; offline, the page's own copy, else the shell for any workspace, else the start page", async () => {
    const w = world();
    await w.dispatch("install");
    expect(await (await w.get("/w/abc", "navigate"))!.text()).toBe("body of /w/abc (b1)");
    w.setOnline(false);
    expect(await (await w.get("/w/abc", "navigate"))!.text()).toBe("body of /w/abc (b1)");
    expect(await (await w.get("/w/never-seen", "navigate"))!.text()).toBe("body of /w/_ (b1)");
    expect(await (await w.get("/s/share-id", "navigate"))!.text()).toBe("body of / (b1)");
    // Cached pages keep their headers (cross-origin isolation depends on them).
    expect((await w.get("/w/abc", "navigate"))!.headers.get("Cross-Origin-Embedder-Policy")).toBe("require-corp");
  });

  it("build files and runtimes: cache first, stored as fetched; API calls and failed answers are never stored", async () => {
    const w = world();
    await w.get("/_next/static/chunks/a.js");
    await w.get("/pyodide/pyodide.asm.wasm");
    // The program sandbox's worker scripts: the page fetches their text (a plain fetch, not a worker's).
    await w.get("/runtimes/python-worker.js");
    expect(await w.get("/api/shares")).toBeUndefined(); // not handled: straight to the network
    // Worker scripts neither: a worker answered by a service worker loses its address's #params.
    expect(await w.get("/_next/static/chunks/turbopack-worker-x.js", "same-origin", "worker")).toBeUndefined();
    await w.get("/missing.js");
    w.served.length = 0;
    w.setOnline(false);
    expect(await (await w.get("/_next/static/chunks/a.js"))!.text()).toBe("body of /_next/static/chunks/a.js (b1)");
    expect(await (await w.get("/pyodide/pyodide.asm.wasm"))!.text()).toBe("body of /pyodide/pyodide.asm.wasm (b1)");
    expect(await (await w.get("/runtimes/python-worker.js"))!.text()).toBe("body of /runtimes/python-worker.js (b1)");
    expect(w.served).toEqual([]);
    expect(w.stores.get("tabula-runtimes")!.entries.size).toBe(1);
    // Our worker scripts change with each build, so they are kept per build (Pyodide's own files are not).
    expect([...w.stores.get("tabula-static-b1")!.entries.keys()]).toEqual([`${ORIGIN}/_next/static/chunks/a.js`, `${ORIGIN}/runtimes/python-worker.js`]);
  });

  it("keeps what the page loaded before it was in control, when the page sends the list", async () => {
    const w = world();
    const replies: unknown[] = [];
    await w.dispatch("message", {
      data: { type: "cache-urls", urls: [`${ORIGIN}/_next/static/chunks/early.js`, "https://cdn.example.com/x.js", `${ORIGIN}/api/shares`, 42] },
      ports: [{ postMessage: (m: unknown) => replies.push(m) }],
    });
    expect(replies).toEqual([{ type: "cached", cached: 1 }]);
    w.setOnline(false);
    expect(await (await w.get("/_next/static/chunks/early.js"))!.text()).toContain("early.js");
  });

  it("serialises into a script that runs on its own", () => {
    const text = serviceWorkerScript("b9");
    const handlers: string[] = [];
    const self = { location: { origin: ORIGIN }, addEventListener: (t: string) => handlers.push(t) };
    new Function("self", text)(self);
    expect(handlers.sort()).toEqual(["activate", "fetch", "install", "message"]);
    expect(text).toContain('"b9"');
  });
});
