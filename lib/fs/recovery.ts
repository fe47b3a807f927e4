import type { WorkspaceFs } from "./workspace-fs";

/** `.<name>.tabula-tmp-<random>`: the sibling temp file an atomic save writes first. */
const TEMP_FILE = /^\.(.+)\.tabula-tmp-[A-Za-z0-9]+$/;

export interface WriteRecovery {
  /** Temp files whose target had gone: renamed back into place (the save was interrupted after the old version was removed). */
  restored: string[];
  /** Temp files next to an intact target: the save never completed, the old version stands. */
  discarded: string[];
}

/**
 * Finish what a crash interrupted in `WorkspaceFs.writeFile`. Run when a workspace opens: a temp
 * file whose target is missing holds the only copy of the new contents and is moved into place;
 * any other temp file is a save that never replaced its target and is removed.
 */
export async function recoverInterruptedWrites(wsfs: WorkspaceFs): Promise<WriteRecovery> {
  const result: WriteRecovery = { restored: [], discarded: [] };
  if (wsfs.readOnly) return result;
  const files = await wsfs.listFiles("");
  for (const path of files) {
    const slash = path.lastIndexOf("/");
    const name = path.slice(slash + 1);
    const match = TEMP_FILE.exec(name);
    if (!match) continue;
    const target = (slash === -1 ? "" : path.slice(0, slash + 1)) + match[1];
    if (await wsfs.exists(target)) {
      await wsfs.remove(path, { origin: "recovery" });
      result.discarded.push(path);
    } else {
      await wsfs.rename(path, target, { origin: "recovery" });
      result.restored.push(target);
    }
  }
  if (result.restored.length || result.discarded.length) await wsfs.flush();
  return result;
}
