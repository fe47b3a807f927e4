/** `git cherry-pick <commit>`: one commit's change applied onto HEAD as a new commit; see ../pick.ts. */
import type { GitContext } from "../context";
import { runPick } from "../pick";

export const name = "cherry-pick";
export const effect = "git cherry-pick changes files";

/** Every form writes (`--help` and a lone `-h` are answered before a command runs). */
export function writes(): boolean {
  return true;
}

export async function run(ctx: GitContext, args: string[]): Promise<number> {
  return runPick(ctx, "cherry-pick", args);
}
