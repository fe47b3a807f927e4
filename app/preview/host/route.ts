import { previewHostPage } from "@/lib/preview/host";
import { PREVIEW_WORKER_PATH } from "@/lib/preview/protocol";

// The preview host page (lib/preview/host.ts). scripts/serve.mjs answers /preview/* only on the
// preview origin's port, so this page never runs on the app's origin.
export function GET(): Response {
  return new Response(previewHostPage(PREVIEW_WORKER_PATH), {
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Cache-Control": "no-cache",
      // Embedded by the app's page, which is cross-origin isolated (COEP require-corp).
      "Cross-Origin-Resource-Policy": "cross-origin",
    },
  });
}
