/** Creating and recognising repositories. */
import git from "isomorphic-git";
import { assertWritableRepo, gitArgs, gitdirOf, joinPath, type GitRepo } from "./types";

/** `git init`; a no-op on an existing repository (isomorphic-git keeps its config). */
export async function initRepo(repo: GitRepo, { defaultBranch = "main" }: { defaultBranch?: string } = {}): Promise<void> {
  assertWritableRepo(repo, "initialise a repository");
  const { fs, dir } = gitArgs(repo);
  await git.init({ fs, dir, defaultBranch });
}

/** True when `<dir>/.git/HEAD` exists, i.e. `dir` is the top of a (non-bare) repository. */
export async function isRepo(repo: GitRepo): Promise<boolean> {
  try {
    const st = await repo.fs.promises.stat(joinPath(gitdirOf(repo), "HEAD"));
    return st.isFile();
  } catch {
    return false;
  }
}
