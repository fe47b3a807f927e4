/**
 * A rebase in progress as .git/rebase-merge holds it, in git's own file names (head-name,
 * onto, orig-head, git-rebase-todo, done, msgnum, end): read by `git rebase --continue` and by
 * `git status`, and by native git alike.
 */
import type { GitContext } from "./context";

export const REBASE_DIR = "rebase-merge";

export type RebaseState = { headName: string; onto: string; origHead: string; todo: string[]; done: string[]; end: number };

export const stateDir = (ctx: GitContext) => `${ctx.repo.gitdir}/${REBASE_DIR}`;

export async function readState(ctx: GitContext): Promise<RebaseState | null> {
  const read = (f: string) => ctx.repo.fs.promises.readFile(`${stateDir(ctx)}/${f}`, "utf8").then(String, () => null);
  const headName = await read("head-name");
  if (headName === null) return null;
  const lines = (t: string | null) => (t ?? "").split("\n").filter((l) => l.startsWith("pick "));
  return {
    headName: headName.trim(),
    onto: (await read("onto"))!.trim(),
    origHead: (await read("orig-head"))!.trim(),
    todo: lines(await read("git-rebase-todo")),
    done: lines(await read("done")),
    end: Number((await read("end")) ?? "0"),
  };
}

export async function writeState(ctx: GitContext, s: RebaseState): Promise<void> {
  await ctx.repo.fs.promises.mkdir(stateDir(ctx)).catch(() => undefined);
  const files: Record<string, string> = {
    "head-name": s.headName + "\n",
    onto: s.onto + "\n",
    "orig-head": s.origHead + "\n",
    "git-rebase-todo": s.todo.map((l) => l + "\n").join(""),
    done: s.done.map((l) => l + "\n").join(""),
    msgnum: `${s.done.length}\n`,
    end: `${s.end}\n`,
    interactive: "",
  };
  for (const [f, text] of Object.entries(files)) await ctx.repo.fs.promises.writeFile(`${stateDir(ctx)}/${f}`, text);
}

export async function removeState(ctx: GitContext): Promise<void> {
  const dir = stateDir(ctx);
  const names = await ctx.repo.fs.promises.readdir(dir).catch(() => [] as string[]);
  for (const n of names) await ctx.repo.fs.promises.unlink(`${dir}/${n}`).catch(() => undefined);
  await ctx.repo.fs.promises.rmdir(dir).catch(() => undefined);
  for (const f of ["REBASE_HEAD", "MERGE_MSG"]) await ctx.repo.fs.promises.unlink(`${ctx.repo.gitdir}/${f}`).catch(() => undefined);
}

