import { gitProxyFromEnv } from "@/lib/server/git-proxy";

export const dynamic = "force-dynamic";
export const runtime = "nodejs";

let proxy: ((request: Request) => Promise<Response>) | undefined;

function handle(request: Request): Promise<Response> {
  proxy ??= gitProxyFromEnv();
  return proxy(request);
}

export const GET = handle;
export const POST = handle;
