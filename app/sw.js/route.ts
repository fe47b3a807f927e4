import fs from "node:fs";
import path from "node:path";
import { serviceWorkerScript } from "@/lib/offline/service-worker";

// Read at request time: the build id names the worker's caches, so a new build replaces them.
export const dynamic = "force-dynamic";

function buildId(): string {
  try {
    return fs.readFileSync(path.join(process.cwd(), ".next", "BUILD_ID"), "utf8").trim();
  } catch {
    return "dev";
  }
}

export function GET(): Response {
  return new Response(serviceWorkerScript(buildId()), {
    headers: {
      "Content-Type": "text/javascript; charset=utf-8",
      // Checked on every visit, so a new build's worker is found at once.
      "Cache-Control": "no-cache",
    },
  });
}
