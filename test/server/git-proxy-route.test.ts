import http from "node:http";
import { afterEach, describe, expect, it } from "vitest";
import { createGitProxy } from "../../lib/server/git-proxy";
import { parseAllowList } from "../../lib/server/git-proxy-address";

/** Real HTTP servers on 127.0.0.1 stand in for git servers; each test says how its server answers. */
const servers: http.Server[] = [];
async function serve(handler: http.RequestListener): Promise<{ base: string; hits: string[] }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    handler(req, res);
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, hits };
}
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const ADVERTISEMENT = "application/x-git-upload-pack-advertisement";
const refs = (res: http.ServerResponse) => {
  res.writeHead(200, { "content-type": ADVERTISEMENT });
  res.end("001e# service=git-upload-pack\n0000");
};

const APP = "127.0.0.1:3000";
function call(proxy: (r: Request) => Promise<Response>, target: string, init: { method?: string; headers?: Record<string, string>; body?: BodyInit } = {}) {
  return proxy(
    new Request(`http://${APP}/api/git-proxy?url=${encodeURIComponent(target)}`, {
      method: init.method ?? "GET",
      headers: { host: APP, "sec-fetch-site": "same-origin", ...init.headers },
      body: init.body,
    }),
  );
}
const local = (limits?: Parameters<typeof createGitProxy>[0]["limits"]) => createGitProxy({ allow: parseAllowList("127.0.0.1"), limits });

describe("git proxy route against real local servers", () => {
  it("refuses loopback unless the operator allows it, and forwards once allowed", async () => {
    const s = await serve((_req, res) => refs(res));
    const url = `${s.base}/r.git/info/refs?service=git-upload-pack`;
    const refused = await call(createGitProxy({ allow: parseAllowList("") }), url);
    expect(refused.status).toBe(403);
    expect((await refused.json()).error).toMatch(/loopback.*TABULA_GIT_PROXY_ALLOW/);
    expect(s.hits).toEqual([]);
    // Other spellings of the same address are the same address.
    const port = new URL(s.base).port;
    for (const alias of [`http://2130706433:${port}`, `http://0x7f.1:${port}`, `http://[::ffff:127.0.0.1]:${port}`]) {
      expect((await call(createGitProxy({ allow: parseAllowList("") }), `${alias}/r.git/info/refs?service=git-upload-pack`)).status).toBe(403);
    }
    expect(s.hits).toEqual([]);

    const allowed = await call(local(), url);
    expect(allowed.status).toBe(200);
    expect(allowed.headers.get("content-type")).toBe(ADVERTISEMENT);
    expect(await allowed.text()).toContain("service=git-upload-pack");
    expect(s.hits).toEqual(["GET /r.git/info/refs?service=git-upload-pack"]);
  });

  it("connects to the address it checked, not to a second DNS answer", async () => {
    const s = await serve((_req, res) => refs(res));
    const port = new URL(s.base).port;
    let lookups = 0;
    const proxy = createGitProxy({
      allow: parseAllowList("127.0.0.1"),
      lookupAll: async () => {
        lookups++;
        return [{ address: "127.0.0.1", family: 4 }];
      },
    });
    // "rebind.invalid" never resolves in real DNS: the request can only have reached the server through the pinned address.
    const r = await call(proxy, `http://rebind.invalid:${port}/r.git/info/refs?service=git-upload-pack`);
    expect(r.status).toBe(200);
    expect(lookups).toBe(1);
    expect(s.hits).toHaveLength(1);

    const mixed = createGitProxy({
      allow: parseAllowList(""),
      lookupAll: async () => [
        { address: "93.184.215.14", family: 4 },
        { address: "127.0.0.1", family: 4 },
      ],
    });
    expect((await call(mixed, `http://mixed.invalid:${port}/r.git/info/refs?service=git-upload-pack`)).status).toBe(403);
    expect(s.hits).toHaveLength(1);
  });

  it("follows no redirect", async () => {
    const elsewhere = await serve((_req, res) => refs(res));
    const s = await serve((_req, res) => {
      res.writeHead(302, { location: `${elsewhere.base}/r.git/info/refs?service=git-upload-pack` });
      res.end();
    });
    const r = await call(local(), `${s.base}/r.git/info/refs?service=git-upload-pack`);
    expect(r.status).toBe(502);
    expect((await r.json()).error).toMatch(/redirects are not followed/);
    expect(elsewhere.hits).toEqual([]);
  });

  it("answers only the app's own pages", async () => {
    const s = await serve((_req, res) => refs(res));
    const url = `${s.base}/r.git/info/refs?service=git-upload-pack`;
    const proxy = local();
    const refusedCallers: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "sec-fetch-site": "same-site" }, // a sibling origin, e.g. a preview page
      { "sec-fetch-site": "none" },
      { "sec-fetch-site": "same-origin", origin: "http://localhost:3000" },
      { "sec-fetch-site": "same-origin", origin: "null" },
    ];
    for (const headers of refusedCallers) {
      const r = await call(proxy, url, { headers });
      expect(r.status, JSON.stringify(headers)).toBe(403);
    }
    expect(s.hits).toEqual([]);
    expect((await call(proxy, url, { headers: { origin: `http://${APP}` } })).status).toBe(200);
    const behindProxy = createGitProxy({ allow: parseAllowList("127.0.0.1"), publicHost: "tabula.example.com" });
    expect((await call(behindProxy, url, { headers: { origin: "https://tabula.example.com" } })).status).toBe(200);
  });

  it("forwards only the smart-HTTP requests, with credentials passed to the target", async () => {
    let seenAuth: string | undefined;
    const s = await serve((req, res) => {
      seenAuth = req.headers.authorization;
      const chunks: Buffer[] = [];
      req.on("data", (c) => chunks.push(c));
      req.on("end", () => {
        res.writeHead(200, { "content-type": "application/x-git-upload-pack-result" });
        res.end(`got ${Buffer.concat(chunks).length}`);
      });
    });
    const proxy = local({ maxRequestBytes: 1000 });
    const post = (body: string, contentType = "application/x-git-upload-pack-request") =>
      call(proxy, `${s.base}/r.git/git-upload-pack`, { method: "POST", body, headers: { "content-type": contentType, origin: `http://${APP}`, authorization: "Basic dTpw" } });
    const ok = await post("0032want abc\n00000009done\n");
    expect(ok.status).toBe(200);
    expect(await ok.text()).toBe("got 26");
    expect(seenAuth).toBe("Basic dTpw");
    expect((await post("x".repeat(1001))).status).toBe(413);
    expect((await post("0000", "text/plain")).status).toBe(415);
    expect((await call(proxy, `${s.base}/secret`)).status).toBe(403);
    expect((await call(proxy, `${s.base}/r.git/info/refs?service=git-receive-pack&leak=1`)).status).toBe(403);
    expect((await call(proxy, `${s.base}/r.git/info/refs?service=git-upload-archive`)).status).toBe(403);
    expect(s.hits).toEqual(["POST /r.git/git-upload-pack"]);
  });

  it("refuses an answer whose declared size is over the limit, and cuts one that grows past it", async () => {
    const declared = await serve((_req, res) => {
      res.writeHead(200, { "content-type": ADVERTISEMENT, "content-length": String(2_000_000) });
      res.write("x");
    });
    const proxy = local({ maxResponseBytes: 1_000_000 });
    expect((await call(proxy, `${declared.base}/r.git/info/refs?service=git-upload-pack`)).status).toBe(413);

    let sent = 0;
    let closed = false;
    const streaming = await serve((_req, res) => {
      res.writeHead(200, { "content-type": ADVERTISEMENT });
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const pump = () => {
        while (!closed && sent < 20_000_000 && res.write(chunk)) sent += chunk.length;
        if (!closed && sent < 20_000_000) res.once("drain", pump);
      };
      res.on("close", () => (closed = true));
      pump();
    });
    const r = await call(proxy, `${streaming.base}/r.git/info/refs?service=git-upload-pack`);
    expect(r.status).toBe(200);
    let received = 0;
    const reader = r.body!.getReader();
    await expect(
      (async () => {
        for (;;) {
          const { done, value } = await reader.read();
          if (done) return;
          received += value.byteLength;
        }
      })(),
    ).rejects.toThrow(/larger than 1000000 bytes/);
    expect(received).toBeLessThanOrEqual(1_000_000);
    await expect.poll(() => closed).toBe(true); // the upstream connection is dropped, not drained
    expect(sent).toBeLessThan(20_000_000);
  });

  it("enforces the time limit before the answer and while it streams", async () => {
    const silent = await serve(() => undefined); // never answers
    const proxy = local({ timeoutMs: 400 });
    const t0 = Date.now();
    const r = await call(proxy, `${silent.base}/r.git/info/refs?service=git-upload-pack`);
    expect(r.status).toBe(504);
    expect(Date.now() - t0).toBeLessThan(5000);

    const trickle = await serve((_req, res) => {
      res.writeHead(200, { "content-type": ADVERTISEMENT });
      res.write("001e# service=git-upload-pack\n"); // then nothing more, ever
    });
    const t1 = Date.now();
    const slow = await call(proxy, `${trickle.base}/r.git/info/refs?service=git-upload-pack`);
    expect(slow.status).toBe(200);
    await expect(slow.text()).rejects.toThrow();
    expect(Date.now() - t1).toBeLessThan(5000);
  });
});
