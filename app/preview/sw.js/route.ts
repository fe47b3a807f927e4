import { previewServiceWorkerScript } from "@/lib/preview/service-worker";
import { PREVIEW_HOST_PATH } from "@/lib/preview/protocol";

// The preview origin's service worker (lib/preview/service-worker.ts).
export function GET(): Response {
  return new Response(previewServiceWorkerScript(PREVIEW_HOST_PATH), {
    headers: { "Content-Type": "text/javascript; charset=utf-8", "Cache-Control": "no-cache" },
  });
}
