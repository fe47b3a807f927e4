/**
 * The git proxy: forwards a browser's git smart-HTTP requests (clone, fetch and push) to a public git
 * server so that CORS does not block them. It connects only to the address it checked (resolved once, then pinned with
 * a custom `lookup`, so a second DNS answer cannot point it elsewhere), follows no redirect, and cuts
 * requests and answers at the size and time limits. Request headers that carry credentials are passed
 * through to the checked target and never logged; a 401 or 403 from the git server is answered as such
 * (without the server's own headers or body), so that the page can ask for credentials and retry.
 */
import dns from "node:dns/promises";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { Readable } from "node:stream";
import { parseAllowList, resolveTarget, type AllowList, type LookupAll } from "./git-proxy-address";
import { checkCaller, checkGitProxyRequest, GIT_PROXY_LIMITS, isGitResponseType } from "./git-proxy-policy";
import { BodyTooLarge, readCapped } from "./read-capped";

export type GitProxyOptions = {
  allow: AllowList;
  limits?: Partial<typeof GIT_PROXY_LIMITS>;
  /** Host (`name:port`) of the app's public URL, accepted as an `Origin` besides the request's own Host. */
  publicHost?: string;
  lookupAll?: LookupAll;
};

const FORWARDED_REQUEST_HEADERS = ["accept", "content-type", "git-protocol", "authorization"];

const systemLookupAll: LookupAll = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

function fail(status: number, error: string) {
  return Response.json({ error }, { status, headers: { "cache-control": "no-store" } });
}


/** One request to `target`, connected to `address` whatever the name resolves to by now. */
function send(
  target: URL,
  address: string,
  family: 4 | 6,
  init: { method: string; headers: Record<string, string>; body?: Buffer; signal: AbortSignal },
): Promise<http.IncomingMessage> {
  const secure = target.protocol === "https:";
  const hostname = target.hostname.replace(/^\[|\]$/g, "");
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      hostname,
      port: target.port || (secure ? 443 : 80),
      path: target.pathname + target.search,
      method: init.method,
      headers: init.body ? { ...init.headers, "content-length": String(init.body.byteLength) } : init.headers,
      agent: false,
      signal: init.signal,
      ...(secure && !net.isIP(hostname) ? { servername: hostname } : {}),
      lookup: ((_name: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
        if (options?.all) callback(null, [{ address, family }]);
        else callback(null, address, family);
      }) as unknown as typeof dns.lookup,
    });
    req.on("response", resolve);
    req.on("error", reject);
    req.end(init.body);
  });
}

export function createGitProxy(options: GitProxyOptions): (request: Request) => Promise<Response> {
  const limits = { ...GIT_PROXY_LIMITS, ...options.limits };
  const lookupAll = options.lookupAll ?? systemLookupAll;

  return async (request) => {
    const caller = checkCaller(request.headers, [request.headers.get("host"), options.publicHost]);
    if (!caller.ok) return fail(403, caller.error);

    const method = request.method;
    const decision = checkGitProxyRequest(method, new URL(request.url).searchParams.get("url"), request.headers.get("content-type"));
    if (!decision.ok) return fail(decision.status, decision.error);
    const { target, service } = decision;

    const resolved = await resolveTarget(target.hostname, options.allow, lookupAll);
    if (!resolved.ok) return fail(403, resolved.error);

    const headers: Record<string, string> = { "user-agent": "git/tabula-proxy" };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = request.headers.get(name);
      if (value) headers[name] = value;
    }
    let body: Buffer | undefined;
    if (method === "POST") {
      try {
        const cap = service === "git-receive-pack" ? limits.maxPushBytes : limits.maxRequestBytes;
        body = Buffer.from(await readCapped(request.body, cap));
      } catch (error) {
        if (error instanceof BodyTooLarge)
          return fail(413, service === "git-receive-pack" ? `Push too large for this server (over ${Math.round(error.limit / 1048576)} MiB).` : "Request too large.");
        throw error;
      }
    }

    // One deadline for the whole exchange, the streamed answer included.
    const deadline = AbortSignal.timeout(limits.timeoutMs);
    let upstream: http.IncomingMessage;
    try {
      upstream = await send(target, resolved.address, resolved.family, { method, headers, body, signal: deadline });
    } catch (error) {
      if (deadline.aborted) return fail(504, `${target.host} did not answer within ${Math.round(limits.timeoutMs / 1000)} s.`);
      return fail(502, `Could not reach ${target.host}: ${(error as { code?: string }).code ?? (error as Error).message}.`);
    }
    const status = upstream.statusCode ?? 502;
    const discard = () => upstream.destroy();
    if (status >= 300 && status < 400) {
      discard();
      const location = upstream.headers.location;
      return fail(502, `${target.host} redirected the request${location ? ` to ${location.split("?")[0]}` : ""}; redirects are not followed. Clone from the final address instead.`);
    }
    if (status === 401 || status === 403) {
      discard();
      const what = service === "git-receive-pack" ? "push to" : "read";
      return fail(status, status === 401 ? `${target.host} asks for credentials to ${what} this repository (HTTP 401).` : `${target.host} refused to let these credentials ${what} this repository (HTTP 403).`);
    }
    if (status < 200 || status >= 300) {
      discard();
      return fail(status === 404 ? 404 : 502, `The git server answered HTTP ${status}.`);
    }
    const contentType = upstream.headers["content-type"] ?? null;
    if (!isGitResponseType(method, contentType, service)) {
      discard();
      return fail(502, `${target.host} is not a git smart-HTTP server (it answered ${contentType ?? "no content type"}).`);
    }
    const length = Number(upstream.headers["content-length"] ?? 0);
    if (length > limits.maxResponseBytes) {
      discard();
      return fail(413, "Repository too large to clone here.");
    }
    return new Response(capped(upstream, limits.maxResponseBytes), {
      status: 200,
      headers: { "content-type": contentType!, "cache-control": "no-store" },
    });
  };
}

/** The answer as a web stream that errors once it grows past `limit` bytes (or the deadline aborts it). */
function capped(upstream: http.IncomingMessage, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return (Readable.toWeb(upstream) as ReadableStream<Uint8Array>).pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) {
          upstream.destroy();
          controller.error(new Error(`Repository larger than ${limit} bytes`));
        } else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * The proxy as configured by the operator:
 *   TABULA_GIT_PROXY_ALLOW  host names and CIDR ranges it may reach besides public addresses
 *                           (e.g. `git.internal,10.0.0.0/8`; `127.0.0.1` for a git server on this machine)
 *   TABULA_PUBLIC_URL       the app's public address, accepted as the pages' origin
 */
export function gitProxyFromEnv(env: NodeJS.ProcessEnv = process.env): (request: Request) => Promise<Response> {
  let publicHost: string | undefined;
  if (env.TABULA_PUBLIC_URL) publicHost = new URL(env.TABULA_PUBLIC_URL).host;
  return createGitProxy({ allow: parseAllowList(env.TABULA_GIT_PROXY_ALLOW), publicHost });
}
