/**
 * The origin that links handed out by the server should carry: the operator's `TABULA_PUBLIC_URL` when
 * set (the app behind a proxy that rewrites Host), else the origin of the page that asked (its `Origin`
 * header: the address the user really has open, `127.0.0.1` and `localhost` being different origins),
 * else the Host the request came to. Next's `request.url` is not used: it carries the name the server
 * was started with, not the one the user typed.
 */
export function publicOrigin(request: Request, env: NodeJS.ProcessEnv = process.env): string {
  if (env.TABULA_PUBLIC_URL) return new URL(env.TABULA_PUBLIC_URL).origin;
  const origin = request.headers.get("origin");
  if (origin && /^https?:\/\/[^/]+$/i.test(origin)) {
    try {
      return new URL(origin).origin;
    } catch {
      // not a URL: fall through to the Host header
    }
  }
  const url = new URL(request.url);
  const trusted = env.TABULA_TRUST_PROXY === "1";
  const host = (trusted && request.headers.get("x-forwarded-host")?.split(",")[0]?.trim()) || request.headers.get("host");
  const proto = (trusted && request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim()) || url.protocol.replace(":", "");
  return host && /^[A-Za-z0-9.:[\]-]+$/.test(host) && /^https?$/.test(proto) ? `${proto}://${host}` : url.origin;
}
