/**
 * The preview origin's service worker against a fake scope: site paths go to their session's
 * host page; a previewed page's root-absolute requests ("/src/main.tsx") are its session's too
 * (a navigation is redirected into the site); everything else is left to the network.
 */
import { describe, expect, it } from "vitest";
import { installPreviewServiceWorker } from "../../lib/preview/service-worker";

const ORIGIN = "http://127.0.0.1:3101";
const HOST = "/preview/host";

function fakeScope() {
  const listeners = new Map<string, (e: unknown) => void>();
  const asked: { session: string; path: string }[] = [];
  const host = (session: string) => ({
    url: `${ORIGIN}${HOST}?session=${session}`,
    postMessage(message: { path: string }, [port]: MessagePort[]) {
      asked.push({ session, path: message.path });
      port!.postMessage({ status: 200, contentType: "text/plain", body: new TextEncoder().encode(`file ${message.path}`).buffer });
    },
  });
  const stored = new Map<string, Response>();
  const net = { online: true, hits: 0 };
  const scope = {
    location: { origin: ORIGIN },
    clients: { claim: async () => undefined, matchAll: async () => [host("sessionAAAA"), host("sessionBBBB")] },
    skipWaiting: async () => undefined,
    addEventListener: (type: string, fn: (e: unknown) => void) => void listeners.set(type, fn),
    fetch: async () => {
      if (!net.online) throw new TypeError("Failed to fetch");
      net.hits++;
      return new Response(`host page ${net.hits}`, { status: 200 });
    },
    caches: {
      open: async () => ({
        put: async (key: string, r: Response) => void stored.set(key, r),
        match: async (key: string) => stored.get(key)?.clone(),
      }),
    } as unknown as CacheStorage,
  };
  installPreviewServiceWorker(scope, HOST);
  const fetch = async (url: string, init: { referrer?: string; mode?: string } = {}) => {
    let answered: Promise<Response> | undefined;
    listeners.get("fetch")!({ request: { url, referrer: init.referrer ?? "", mode: init.mode ?? "cors" }, respondWith: (r: Promise<Response> | Response) => (answered = Promise.resolve(r)) });
    return answered;
  };
  return { fetch, asked, net };
}

describe("the preview service worker", () => {
  it("serves a site path from its session's host, and a previewed page's root-absolute request from the page's session", async () => {
    const sw = fakeScope();
    expect(await (await sw.fetch(`${ORIGIN}/preview/sessionAAAA/index.html`))!.text()).toBe("file index.html");
    const r = await sw.fetch(`${ORIGIN}/src/main.tsx`, { referrer: `${ORIGIN}/preview/sessionBBBB/index.html` });
    expect(await r!.text()).toBe("file src/main.tsx");
    expect(sw.asked).toEqual([
      { session: "sessionAAAA", path: "index.html" },
      { session: "sessionBBBB", path: "src/main.tsx" },
    ]);
  });

  it("redirects a previewed page's link to a root-absolute page into its site", async () => {
    const sw = fakeScope();
    const r = await sw.fetch(`${ORIGIN}/about?x=1`, { referrer: `${ORIGIN}/preview/sessionAAAA/`, mode: "navigate" });
    expect(r!.status).toBe(302);
    expect(r!.headers.get("location")).toBe(`${ORIGIN}/preview/sessionAAAA/about?x=1`);
  });

  it("serves the host page from the network, and offline the copy kept from the last visit (any session)", async () => {
    const sw = fakeScope();
    expect(await (await sw.fetch(`${ORIGIN}${HOST}?session=sessionAAAA`))!.text()).toBe("host page 1");
    sw.net.online = false;
    expect(await (await sw.fetch(`${ORIGIN}${HOST}?session=sessionBBBB`))!.text()).toBe("host page 1");
    sw.net.online = true;
    expect(await (await sw.fetch(`${ORIGIN}${HOST}?session=sessionBBBB`))!.text()).toBe("host page 2");
    const never = fakeScope();
    never.net.online = false;
    await expect(never.fetch(`${ORIGIN}${HOST}?session=x`)).rejects.toThrow(/Failed to fetch/);
  });

  it("leaves other sites and requests from no previewed page to the network", async () => {
    const sw = fakeScope();
    expect(await sw.fetch("https://example.com/lib.js", { referrer: `${ORIGIN}/preview/sessionAAAA/` })).toBeUndefined();
    expect(await sw.fetch(`${ORIGIN}/src/main.tsx`)).toBeUndefined();
    expect(await sw.fetch(`${ORIGIN}/src/main.tsx`, { referrer: "https://elsewhere.example/preview/sessionAAAA/" })).toBeUndefined();
    expect(sw.asked).toEqual([]);
  });
});
