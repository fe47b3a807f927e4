import { publicOrigin } from "@/lib/server/public-origin";
import { clientKey, shareService } from "@/lib/server/shares/config";
import { ShareError } from "@/lib/server/shares/service";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** Read a request body, refusing it as soon as it grows past `limit` bytes. */
async function readCapped(body: ReadableStream<Uint8Array> | null, limit: number): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => undefined);
      throw new ShareError(413, `The share is larger than this server accepts (${limit} bytes).`);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.byteLength;
  }
  return out;
}

/** POST /api/shares?expiresIn=<seconds> with a share package (application/zip) → { id, url, deleteSecret, expiresAt }. */
export async function POST(request: Request): Promise<Response> {
  try {
    const service = shareService();
    const url = new URL(request.url);
    const expires = url.searchParams.get("expiresIn");
    const data = await readCapped(request.body, service.maxBytes);
    const r = await service.create(data, { client: clientKey(request.headers), expiresInMs: expires ? Number(expires) * 1000 : undefined });
    return Response.json({ ...r, url: `${publicOrigin(request)}/s/${r.id}` }, { status: 201, headers: { "cache-control": "no-store" } });
  } catch (e) {
    if (e instanceof ShareError) return Response.json({ error: e.message }, { status: e.status });
    console.error(e);
    return Response.json({ error: "The share could not be stored." }, { status: 500 });
  }
}
