/** Node entry for the shell benchmark: the same shell over node:fs. */
import fs from "node:fs";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell, type Shell } from "../../lib/shell";

export async function nodeShell(dir: string): Promise<Shell> {
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
  return createShell({ fs: fs as unknown as IsoFs, dir, wsfs, defenseInDepth: false });
}
