import { clientKey, shareService } from "@/lib/server/shares/config";
import { ShareError } from "@/lib/server/shares/service";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

function fail(e: unknown): Response {
  if (e instanceof ShareError) return Response.json({ error: e.message, reason: e.reason }, { status: e.status, headers: { "cache-control": "no-store" } });
  console.error(e);
  return Response.json({ error: "The share store failed." }, { status: 500 });
}

/** GET /api/shares/<id> → the package; 404 unknown, 410 revoked or expired (with the reason). */
export async function GET(_request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await ctx.params;
    const { data } = await shareService().get(id);
    return new Response(data as BodyInit, { headers: { "content-type": "application/zip", "cache-control": "no-store", "x-content-type-options": "nosniff" } });
  } catch (e) {
    return fail(e);
  }
}

/** DELETE /api/shares/<id> with header X-Delete-Secret → 204; the link then says it was revoked. */
export async function DELETE(request: Request, ctx: { params: Promise<{ id: string }> }): Promise<Response> {
  try {
    const { id } = await ctx.params;
    await shareService().revoke(id, request.headers.get("x-delete-secret") ?? "", clientKey(request.headers));
    return new Response(null, { status: 204 });
  } catch (e) {
    return fail(e);
  }
}
