/**
 * The pieces remote tests share: isomorphic-git's HTTP client routed through the app's git proxy
 * (the route handler itself, called in-process as Next would call it), and native git against the
 * http-backend fixture.
 */
import { execFile, execFileSync } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { HttpClient } from "isomorphic-git";
import { createGitProxy } from "../../lib/server/git-proxy";
import { parseAllowList } from "../../lib/server/git-proxy-address";
import { GIT_ENV } from "./helpers";

export const APP_HOST = "127.0.0.1:3000";

/** Every request the page made to the proxy, as the page would send it (for "no token in the URL" checks). */
export type ProxyCall = { method: string; url: string; status: number };

/** An HttpClient that sends every request to `/api/git-proxy?url=…` of a proxy allowed to reach 127.0.0.1. */
export function proxiedClient(calls: ProxyCall[] = [], proxy = createGitProxy({ allow: parseAllowList("127.0.0.1") })): HttpClient {
  return {
    async request({ url, method = "GET", headers = {}, body }) {
      let payload: Uint8Array<ArrayBuffer> | undefined;
      if (body) {
        const parts: Uint8Array[] = [];
        for await (const chunk of body as AsyncIterable<Uint8Array>) parts.push(chunk);
        payload = new Uint8Array(Buffer.concat(parts));
      }
      const proxied = `http://${APP_HOST}/api/git-proxy?url=${encodeURIComponent(url)}`;
      const res = await proxy(
        new Request(proxied, {
          method,
          headers: { ...headers, host: APP_HOST, "sec-fetch-site": "same-origin" },
          body: payload,
        }),
      );
      calls.push({ method, url: proxied, status: res.status });
      const bytes = new Uint8Array(await res.arrayBuffer());
      return {
        url,
        method,
        statusCode: res.status,
        statusMessage: res.statusText,
        headers: Object.fromEntries(res.headers),
        body: (async function* () {
          yield bytes;
        })(),
      };
    },
  };
}

/** Native git's environment: the parity tests' own (fixed identity, no user or system config). */
export const NATIVE_ENV = GIT_ENV;

export function native(cwd: string, ...args: string[]): string {
  return execFileSync("git", ["-c", "init.defaultBranch=main", ...args], { cwd, env: NATIVE_ENV, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
}

export function tempDir(prefix = "tabula-remote-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/**
 * Native git without blocking the event loop: needed whenever it talks to the fixture server, which
 * runs in the test's own process.
 */
export async function nativeAsync(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)("git", ["-c", "init.defaultBranch=main", ...args], { cwd, env: NATIVE_ENV, encoding: "utf8" });
  return stdout;
}

/** A native clone of the served repository over HTTP (straight to the fixture server), to push from or inspect. */
export async function nativeClone(url: string): Promise<string> {
  const dir = tempDir("tabula-native-");
  await nativeAsync(dir, "clone", "-q", url, ".");
  return dir;
}
