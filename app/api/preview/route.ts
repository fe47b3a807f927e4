import { previewOrigin } from "@/lib/preview/origin";

// Where this server serves the web preview (lib/preview/origin.ts), or null when it does not
// (plain `next start`/`next dev` without scripts/serve.mjs and without TABULA_PREVIEW_ORIGIN).
export const dynamic = "force-dynamic";

export function GET(request: Request): Response {
  const host = request.headers.get("host");
  const url = new URL(request.url);
  const appURL = host ? new URL(`${url.protocol}//${host}`) : url;
  const origin = previewOrigin(appURL, { origin: process.env.TABULA_PREVIEW_ORIGIN, port: process.env.TABULA_PREVIEW_PORT });
  return Response.json({ origin }, { headers: { "Cache-Control": "no-store" } });
}
