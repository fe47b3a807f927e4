import { checkGitProxyRequest, GIT_PROXY_LIMITS, isGitResponseType } from "@/lib/server/git-proxy-policy";

export const dynamic = "force-dynamic";

const FORWARDED_REQUEST_HEADERS = ["accept", "content-type", "git-protocol"];

function fail(status: number, error: string) {
  return Response.json({ error }, { status });
}

/** Cuts a stream that grows past `limit` bytes, so a huge pack cannot exhaust the server. */
function capped(body: ReadableStream<Uint8Array>, limit: number): ReadableStream<Uint8Array> {
  let seen = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > limit) controller.error(new Error(`Repository larger than ${limit} bytes`));
        else controller.enqueue(chunk);
      },
    }),
  );
}

async function proxy(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const method = request.method;
  const decision = checkGitProxyRequest(method, url.searchParams.get("url"), request.headers.get("content-type"));
  if (!decision.ok) return fail(decision.status, decision.error);

  const headers = new Headers({ "user-agent": "git/tabula-proxy" });
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value) headers.set(name, value);
  }
  let body: ArrayBuffer | undefined;
  if (method === "POST") {
    body = await request.arrayBuffer();
    if (body.byteLength > GIT_PROXY_LIMITS.maxRequestBytes) return fail(413, "Request too large.");
  }
  let upstream: Response;
  try {
    upstream = await fetch(decision.target, {
      method,
      headers,
      body,
      redirect: "follow",
      signal: AbortSignal.timeout(GIT_PROXY_LIMITS.timeoutMs),
    });
  } catch (error) {
    return fail(502, `Could not reach ${decision.target.host}: ${(error as Error).message}`);
  }
  if (!upstream.ok) {
    return fail(upstream.status === 404 ? 404 : 502, `The git server answered HTTP ${upstream.status}.`);
  }
  const contentType = upstream.headers.get("content-type");
  if (!isGitResponseType(method, contentType)) {
    await upstream.body?.cancel();
    return fail(502, `${decision.target.host} is not a git smart-HTTP server (it answered ${contentType ?? "no content type"}).`);
  }
  const length = Number(upstream.headers.get("content-length") ?? 0);
  if (length > GIT_PROXY_LIMITS.maxResponseBytes) return fail(413, "Repository too large to clone here.");
  return new Response(upstream.body ? capped(upstream.body, GIT_PROXY_LIMITS.maxResponseBytes) : null, {
    status: 200,
    headers: { "content-type": contentType!, "cache-control": "no-store" },
  });
}

export const GET = proxy;
export const POST = proxy;
