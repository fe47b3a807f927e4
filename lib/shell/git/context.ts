/**
 * What a git subcommand's `run(ctx, args)` gets, in three parts by concern:
 * - `ctx.io`   its streams (output.ts): `out`, `outBytes`, `err`, `stdin`;
 * - `ctx.repo` the repository (repository.ts): `iso` (the fs/dir/gitdir/cache every
 *   isomorphic-git call takes), refs and revisions, trees, blobs, config, identity;
 * - `ctx.work` the work tree (worktree.ts): cwd and pathspecs, index and status, file reads,
 *   and the journalled writes checkout/reset/stash make.
 * The fs behind all three is read-only when the shell is, and hides what the shell's user
 * must not see.
 */
import { hidingIsoFs, type HiddenPaths } from "../../fs/hidden-view";
import { isGitInternal } from "../../fs/paths";
import type { IsoFs } from "../../fs/types";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import type { Transport } from "../../git/remote-transfer";
import { GitOutput } from "./output";
import { GitRepository, readOnlyIsoFs } from "./repository";
import { fatal } from "./util";
import { WorkTree } from "./worktree";

export { EMPTY_TREE, ZERO_OID, type Identity, type TreeEntry, type TreeMap } from "./repository";

export type GitEnvOptions = {
  fs: IsoFs;
  wsfs: WorkspaceFs;
  mountPoint: string;
  readOnly: boolean;
  /** Called before and after every git command (it changes the raw fs behind the shell's
   * back: the shell drops its per-command metadata memo). */
  onRawChange?: () => void;
  /**
   * Paths the shell's user must not see (the agent's view, lib/fs/hidden-view). git then
   * reads the work tree through the same hiding view, and leaves those paths out of every
   * tree, index and status it works from, so no subcommand shows, stages, writes or removes them.
   */
  hidden?: HiddenPaths | null;
  /**
   * How fetch, pull, push and clone reach a git server (an HTTP client routed through the app's
   * proxy, and who answers a request for credentials), made afresh per command. Absent: this shell
   * has no network, and those commands say so.
   */
  transport?: () => Transport;
};

export class GitContext {
  readonly io = new GitOutput();
  readonly repo: GitRepository;
  readonly work: WorkTree;
  readonly readOnly: boolean;
  /** The options the shell built the git command with (for what a command needs from outside). */
  readonly options: GitEnvOptions;

  /** `cwdRel`: the caller's cwd relative to the workspace root ("" = root); `env`: its environment. */
  constructor(opts: GitEnvOptions, cwdRel: string, env: Map<string, string>) {
    this.options = opts;
    this.readOnly = opts.readOnly;
    const hidden = opts.hidden ?? null;
    const fullFs = opts.readOnly ? readOnlyIsoFs(opts.fs) : opts.fs;
    // .git itself stays whole for isomorphic-git; the work tree is seen as the shell's user sees it.
    const fs = hidden ? hidingIsoFs(fullFs, opts.wsfs.dir, hidden, { exempt: isGitInternal }) : fullFs;
    this.repo = new GitRepository({ fs, fullFs, dir: opts.wsfs.dir, hidden, env });
    this.work = new WorkTree({ repo: this.repo, wsfs: opts.wsfs, mountPoint: opts.mountPoint, cwdRel, readOnly: opts.readOnly });
  }

  /** Refuse a write in read-only (Plan) mode, naming the form that would have made it. */
  assertWritable(form: string): void {
    if (this.readOnly) throw fatal(`'${form}' would modify the repository: the workspace is read-only (Plan mode)`);
  }
}
