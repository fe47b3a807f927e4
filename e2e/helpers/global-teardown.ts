import fs from "node:fs";

/** Remove the run's share folder (playwright.config.ts made it). */
export default function globalTeardown() {
  const dir = process.env.TABULA_E2E_SHARE_DIR;
  if (dir && dir.includes("tabula-e2e-shares-")) fs.rmSync(dir, { recursive: true, force: true });
}
