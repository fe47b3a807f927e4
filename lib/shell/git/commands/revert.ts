/** `git revert <commit>`: a new commit undoing one commit's change; see ../pick.ts. */
import type { GitContext } from "../context";
import { runPick } from "../pick";

export const name = "revert";
export const effect = "git revert changes files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  return runPick(ctx, "revert", args);
}
