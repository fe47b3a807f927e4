import type { HttpClient } from "isomorphic-git";
import webHttp from "isomorphic-git/http/web";
import type { IsoFs } from "../fs";
import type { AuthCallbacks } from "../git/credentials";
import { fastClone } from "../git/fast-clone";

export interface CloneProgress {
  phase: string;
  loaded: number;
  total?: number;
}

/** Only plain http(s) URLs are cloned; anything else is refused before a request is made. */
export function validateCloneUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new Error(`"${raw}" is not a URL. Use an http(s) address such as https://example.com/owner/repo.git`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new Error(`Only http:// and https:// repositories can be cloned (got ${url.protocol}).`);
  if (url.username || url.password) throw new Error("Credentials in the clone URL are not supported: they would be sent through the proxy.");
  return url.toString();
}

/**
 * isomorphic-git's web client, with every request sent to the same-origin proxy
 * (`/api/git-proxy?url=…`) so that the browser's CORS rules do not block the clone.
 */
export function proxiedHttp(proxyEndpoint: string): HttpClient {
  return {
    request: (req) => webHttp.request({ ...req, url: `${proxyEndpoint}?url=${encodeURIComponent(req.url)}` }),
  };
}

/** The clone proxy answers errors as `{ "error": "…" }`: show that sentence rather than raw JSON. */
function proxyErrorText(body: string | undefined): string | undefined {
  const text = body?.trim();
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (typeof parsed.error === "string") return parsed.error;
  } catch {
    // not JSON: a plain-text answer from the git server
  }
  return text.slice(0, 300);
}

/** Explain isomorphic-git's errors in the user's terms. */
export function describeCloneError(error: unknown, url: string): string {
  const e = error as { code?: string; message?: string; data?: { statusCode?: number; response?: string } };
  const detail = proxyErrorText(e?.data?.response);
  if (e?.code === "HttpError") {
    const status = e.data?.statusCode;
    if (status === 404) return `No git repository at ${url} (HTTP 404).`;
    // The proxy's own refusals (address not allowed, redirect, size, time) carry their sentence.
    if (detail && status !== undefined && [400, 403, 413, 415, 502, 504].includes(status)) return detail;
    if (status === 401) return `The server asks for credentials to read ${url} (HTTP 401), and none were accepted.`;
    if (status === 403) return `The server refused access to ${url} (HTTP 403).`;
    return `The server answered HTTP ${status ?? "error"}${detail ? `: ${detail}` : ""}.`;
  }
  if (e?.code === "UserCanceledError") return `Clone cancelled: no credentials were given for ${new URL(url).host}.`;
  if (e?.code === "SmartHttpError" || e?.code === "ParseError" || e?.code === "UnknownTransportError")
    return `${url} is not a git server speaking the smart HTTP protocol.`;
  return `Clone failed: ${e?.message ?? String(error)}`;
}

export async function cloneRepository(
  repo: { fs: IsoFs; dir: string },
  url: string,
  opts: {
    proxyEndpoint: string;
    onProgress?: (p: CloneProgress) => void;
    signal?: AbortSignal;
    auth?: AuthCallbacks;
    /** Only the last `depth` commits (a shallow clone; the boundary is recorded in .git/shallow). */
    depth?: number;
  },
): Promise<void> {
  const target = validateCloneUrl(url);
  try {
    await fastClone({
      fs: repo.fs,
      dir: repo.dir,
      http: proxiedHttp(opts.proxyEndpoint),
      url: target,
      singleBranch: true,
      ...(opts.depth ? { depth: opts.depth } : {}),
      ...(opts.auth ? { auth: opts.auth } : {}),
      signal: opts.signal,
      onProgress: (p) => opts.onProgress?.({ phase: p.phase, loaded: p.loaded, total: p.total }),
    });
  } catch (error) {
    if ((error as Error)?.name === "AbortError") throw error;
    throw new Error(describeCloneError(error, target));
  }
}
