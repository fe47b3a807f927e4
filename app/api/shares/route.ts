import { publicOrigin } from "@/lib/server/public-origin";
import { clientKey, shareService } from "@/lib/server/shares/config";
import { ShareError } from "@/lib/server/shares/service";
import { BodyTooLarge, readCapped } from "@/lib/server/read-capped";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

/** POST /api/shares?expiresIn=<seconds> with a share package (application/zip) → { id, url, deleteSecret, expiresAt }. */
export async function POST(request: Request): Promise<Response> {
  try {
    const service = shareService();
    const url = new URL(request.url);
    const expires = url.searchParams.get("expiresIn");
    let data: Uint8Array;
    try {
      data = await readCapped(request.body, service.maxBytes);
    } catch (e) {
      if (e instanceof BodyTooLarge) throw new ShareError(413, `The share is larger than this server accepts (${service.maxBytes} bytes).`);
      throw e;
    }
    const r = await service.create(data, { client: clientKey(request.headers), expiresInMs: expires ? Number(expires) * 1000 : undefined });
    return Response.json({ ...r, url: `${publicOrigin(request)}/s/${r.id}` }, { status: 201, headers: { "cache-control": "no-store" } });
  } catch (e) {
    if (e instanceof ShareError) return Response.json({ error: e.message }, { status: e.status });
    console.error(e);
    return Response.json({ error: "The share could not be stored." }, { status: 500 });
  }
}
