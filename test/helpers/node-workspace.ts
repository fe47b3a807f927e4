import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { WorkspaceFs, ChangeJournal, type IsoFs } from "../../lib/fs";

/** A WorkspaceFs over a fresh temp directory on node:fs. */
export function tempWorkspace(files: Record<string, string | Uint8Array> = {}) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-test-"));
  for (const [p, data] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true });
    fs.writeFileSync(path.join(dir, p), data);
  }
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
  return { dir, wsfs, cleanup: () => fs.rmSync(dir, { recursive: true, force: true }) };
}
