/** `node:url` — WHATWG URL and URLSearchParams, file: URL conversions, and the legacy parse/format. */
import { resolve } from "./path";

export function fileURLToPath(u: string | URL): string {
  const url = typeof u === "string" ? new URL(u) : u;
  if (url.protocol !== "file:") throw Object.assign(new TypeError("The URL must be of scheme file"), { code: "ERR_INVALID_URL_SCHEME" });
  if (url.hostname !== "" && url.hostname !== "localhost") throw Object.assign(new TypeError(`File URL host must be "localhost" or empty on linux`), { code: "ERR_INVALID_FILE_URL_HOST" });
  if (/%2f/i.test(url.pathname)) throw Object.assign(new TypeError("File URL path must not include encoded / characters"), { code: "ERR_INVALID_FILE_URL_PATH" });
  return decodeURIComponent(url.pathname);
}

export function pathToFileURL(p: string): URL {
  let abs = resolve(p);
  if (p.endsWith("/") && !abs.endsWith("/")) abs += "/";
  const url = new URL("file://");
  url.pathname = abs.replace(/%/g, "%25").replace(/\\/g, "%5C").replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/\t/g, "%09").replace(/#/g, "%23").replace(/\?/g, "%3F");
  return url;
}

function legacyParse(s: string, parseQuery = false): Record<string, unknown> {
  let u: URL | null = null;
  try {
    u = new URL(s);
  } catch {
    u = null;
  }
  if (!u) {
    const [pathPart, hash] = s.split("#", 2) as [string, string | undefined];
    const [pathname, search] = pathPart.split("?", 2) as [string, string | undefined];
    return {
      protocol: null, slashes: null, auth: null, host: null, port: null, hostname: null,
      hash: hash !== undefined ? `#${hash}` : null,
      search: search !== undefined ? `?${search}` : null,
      query: parseQuery ? Object.fromEntries(new URLSearchParams(search ?? "")) : (search ?? null),
      pathname, path: pathPart, href: s,
    };
  }
  return {
    protocol: u.protocol, slashes: s.slice(u.protocol.length).startsWith("//"),
    auth: u.username ? decodeURIComponent(u.username) + (u.password ? `:${decodeURIComponent(u.password)}` : "") : null,
    host: u.host || null, port: u.port || null, hostname: u.hostname || null,
    hash: u.hash || null, search: u.search || null,
    query: parseQuery ? Object.fromEntries(u.searchParams) : u.search ? u.search.slice(1) : null,
    pathname: u.pathname, path: u.pathname + u.search, href: u.href,
  };
}

export function urlModule(): Record<string, unknown> {
  return {
    URL,
    URLSearchParams,
    fileURLToPath,
    pathToFileURL,
    parse: legacyParse,
    format: (u: URL | string | Record<string, string>) => (typeof u === "string" ? u : u instanceof URL ? u.href : `${u.protocol ?? ""}${u.slashes || u.host ? "//" : ""}${u.host ?? u.hostname ?? ""}${u.pathname ?? ""}${u.search ?? ""}${u.hash ?? ""}`),
    resolve: (from: string, to: string) => new URL(to, new URL(from, "resolve://")).href.replace(/^resolve:\/\//, ""),
    domainToASCII: (d: string) => new URL(`http://${d}`).hostname,
    domainToUnicode: (d: string) => d,
  };
}
