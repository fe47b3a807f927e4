/**
 * What the git proxy agrees to forward: only the requests of git's smart-HTTP protocol to an http(s)
 * URL — for a clone/fetch `GET …/info/refs?service=git-upload-pack` and `POST …/git-upload-pack`, for a
 * push `GET …/info/refs?service=git-receive-pack` and `POST …/git-receive-pack`. Any other URL, query or
 * method is refused, so the proxy is no general-purpose relay.
 */
export const GIT_PROXY_LIMITS = {
  /** Largest upload-pack request body (the "wants/haves" negotiation). */
  maxRequestBytes: 4 * 1024 * 1024,
  /**
   * Largest receive-pack request body: a push carries a packfile of the new objects, so the
   * negotiation's cap would refuse ordinary pushes. Read into memory whole, hence well below the
   * answer cap.
   */
  maxPushBytes: 64 * 1024 * 1024,
  /** Largest response forwarded (a packfile). */
  maxResponseBytes: 512 * 1024 * 1024,
  /** Whole request, upstream included. */
  timeoutMs: 120_000,
};

export type GitService = "git-upload-pack" | "git-receive-pack";

export type ProxyDecision = { ok: true; target: URL; service: GitService } | { ok: false; status: number; error: string };

const SERVICES: readonly GitService[] = ["git-upload-pack", "git-receive-pack"];

const ALLOWED = "Only git smart-HTTP requests are proxied (GET …/info/refs?service=git-upload-pack or git-receive-pack, POST …/git-upload-pack or …/git-receive-pack).";

export function checkGitProxyRequest(method: string, rawTarget: string | null, contentType: string | null): ProxyDecision {
  if (!rawTarget) return { ok: false, status: 400, error: "Missing ?url= parameter." };
  let target: URL;
  try {
    target = new URL(rawTarget);
  } catch {
    return { ok: false, status: 400, error: "The url parameter is not a URL." };
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return { ok: false, status: 400, error: "Only http(s) git servers can be reached." };
  if (target.username || target.password) return { ok: false, status: 400, error: "Credentials in URLs are not forwarded." };
  if (method === "GET") {
    // Exactly the query git sends: nothing else rides along to the target.
    const service = SERVICES.find((s) => target.search === `?service=${s}`);
    if (!target.pathname.endsWith("/info/refs") || !service) return { ok: false, status: 403, error: ALLOWED };
    return { ok: true, target, service };
  }
  if (method === "POST") {
    const service = SERVICES.find((s) => target.pathname.endsWith(`/${s}`));
    if (!service || target.search) return { ok: false, status: 403, error: ALLOWED };
    if (contentType !== `application/x-${service}-request`)
      return { ok: false, status: 415, error: `Expected Content-Type application/x-${service}-request.` };
    return { ok: true, target, service };
  }
  return { ok: false, status: 405, error: `Method ${method} is not proxied.` };
}

export type CallerDecision = { ok: true } | { ok: false; error: string };

/**
 * The proxy answers only the app's own pages. Browsers say where a request comes from in
 * `Sec-Fetch-Site` (and `Origin` on cross-origin requests): anything other than "same-origin" — another
 * site, a sibling origin such as a preview page, a sandboxed frame — is refused. A client that sends
 * neither is not a web page acting for someone else (curl, a script), and gets the same address checks.
 */
export function checkCaller(headers: Headers, appHosts: readonly (string | null | undefined)[]): CallerDecision {
  const site = headers.get("sec-fetch-site");
  if (site !== null && site !== "same-origin") return { ok: false, error: "The git proxy answers only the app's own pages." };
  const origin = headers.get("origin");
  if (origin !== null) {
    let host: string | null = null;
    try {
      host = new URL(origin).host;
    } catch {
      // "null" (an opaque origin) and other non-URLs are refused below
    }
    if (!host || !appHosts.includes(host)) return { ok: false, error: "The git proxy answers only the app's own pages." };
  }
  return { ok: true };
}

/** An upstream answer is forwarded only if it is what a git server says to the request made. */
export function isGitResponseType(method: string, contentType: string | null, service: GitService = "git-upload-pack"): boolean {
  const ct = (contentType ?? "").split(";")[0].trim();
  return method === "GET" ? ct === `application/x-${service}-advertisement` : ct === `application/x-${service}-result`;
}
