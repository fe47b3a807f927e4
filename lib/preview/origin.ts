/**
 * Where the preview is served: an origin other than the app's, so the previewed page (the
 * workspace's own code) cannot read the app's storage. The default is the same host on a second
 * port (scripts/serve.mjs listens on both): a different origin, but the same site, so the preview
 * frame is not a third-party context and may register its service worker where browsers block
 * third-party storage (a different host name, e.g. localhost next to 127.0.0.1, is refused there).
 * TABULA_PREVIEW_ORIGIN names another origin outright (a deployment behind a proxy).
 */
export type PreviewOriginConfig = { origin?: string; port?: string };

export function previewOrigin(appURL: URL, config: PreviewOriginConfig): string | null {
  if (config.origin) {
    const origin = new URL(config.origin).origin;
    return origin === appURL.origin ? null : origin;
  }
  const port = Number(config.port);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) return null;
  const u = new URL(appURL.origin);
  u.port = String(port);
  return u.origin === appURL.origin ? null : u.origin;
}
