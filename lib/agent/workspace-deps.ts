/**
 * The real dependencies of a session: the workspace's WorkspaceFs, the checkpoint engine
 * (lib/checkpoints) and the shell (lib/shell, just-bash). Both engines are loaded with a dynamic
 * import the first time they are needed, so the agent chunk stays small and nothing heavy runs
 * at import time. Works in the browser (lightning-fs) and in Node (node:fs) alike.
 */
import { HiddenPathSet } from "../fs/hidden-view";
import type { WorkspaceFs } from "../fs/workspace-fs";
import { listDirOf } from "../fs/listing";
import type { AgentDeps, CheckpointRecord, CheckpointService, RestoreRecord, ShellLike } from "./types";

export type WorkspaceAgentDepsOptions = {
  /** The workspace's full file system (the user's view); the agent gets a hiding view of it. */
  wsfs: WorkspaceFs;
  /** Extra environment for commands (e.g. GIT_AUTHOR_NAME). */
  shellEnv?: Record<string, string>;
  /** Default per-command time limit of the shell. */
  shellTimeoutMs?: number;
  /**
   * just-bash's defense-in-depth (patches globals during an exec). lib/shell's default is right
   * for browsers; Node callers (tests, bench) on lightning-fs pass false.
   */
  defenseInDepth?: boolean;
  /** How the agent's `git` fetch/pull/push/clone reach a server; absent: its shell has no network. */
  gitTransport?: () => import("../git/remote-transfer").Transport;
  /** Batched reads for the checkpoint engine (the browser passes lightningReadMany for the workspace's IndexedDB). */
  checkpointReadMany?: import("../checkpoints/index").ReadMany;
  /** Where the shell's `python3` runs (the browser passes its worker runtime). */
  python?: import("../runtimes/python/runtime").PythonRuntime;
  /** Where the shell's `node` runs (the browser passes its worker runtime). */
  node?: import("../runtimes/node/runtime").NodeRuntime;
  /** The workspace's web preview, for the `preview` tool (the browser passes its controller). */
  preview?: import("../preview/controller").PreviewService;
  /** The npm registry the shell's `npm install` may use (the user's setting, read on each install); absent: off. */
  packages?: () => import("../packages/registry").RegistryAccess | undefined;
};

type CheckpointsModule = typeof import("../checkpoints/index");
type ShellModule = typeof import("../shell/index");

let checkpointsModule: Promise<CheckpointsModule> | null = null;
let shellModule: Promise<ShellModule> | null = null;

function loadCheckpoints(): Promise<CheckpointsModule> {
  checkpointsModule ??= import("../checkpoints/index").catch((err) => {
    checkpointsModule = null;
    throw err;
  });
  return checkpointsModule;
}

function loadShell(): Promise<ShellModule> {
  shellModule ??= import("../shell/index").catch((err) => {
    shellModule = null;
    throw err;
  });
  return shellModule;
}

/** lib/checkpoints behind the agent's CheckpointService interface. */
export function createCheckpointService(wsfs: WorkspaceFs, accel: { readMany?: import("../checkpoints/index").ReadMany } = {}): CheckpointService {
  // readMany batches the first (cold) snapshot's reads into IndexedDB transactions (lightning-fs reads one file per transaction).
  const ws = { fs: wsfs.fs, dir: wsfs.dir, journal: wsfs.journal, readMany: accel.readMany, listDir: listDirOf(wsfs.fs) };
  void loadCheckpoints().catch(() => undefined); // warm it up: the first run should not wait for the import
  return {
    async create(opts): Promise<CheckpointRecord> {
      const m = await loadCheckpoints();
      const c = await m.createCheckpoint(ws, opts);
      return { ref: c.ref, oid: c.oid, createdAt: c.createdAt, label: c.label, stats: { ms: c.stats?.ms } };
    },
    async restore(refOrOid, opts): Promise<RestoreRecord> {
      const m = await loadCheckpoints();
      const r = await m.restoreCheckpoint(ws, refOrOid, opts);
      return { txid: r.txid, changed: r.changed, savedRef: r.savedRef };
    },
    async undoRestore(txid): Promise<RestoreRecord> {
      const m = await loadCheckpoints();
      const r = await m.undoRestore(ws, txid);
      return { txid: r.txid, changed: r.changed };
    },
  };
}

/**
 * Dependencies over a real workspace. The UI calls this once per open workspace.
 *
 * The agent's tools and shell get `wsfs`, a view of the workspace without the paths in
 * `hiddenPaths` (which policies such as the env-blocker plugin fill while they are on, through
 * AgentSession.hidePaths). Only checkpoints, which never show bytes to the model, and git's own
 * `.git` reads keep the full file system.
 */
export function createWorkspaceAgentDeps(opts: WorkspaceAgentDepsOptions): AgentDeps {
  const full = opts.wsfs;
  const hiddenPaths = new HiddenPathSet();
  const wsfs = full.hidingView(hiddenPaths);
  let shell: Promise<import("../shell/index").Shell> | null = null;
  const getShell = () => {
    shell ??= loadShell()
      .then((m) =>
        m.createShell({
          // git reads .git through the full fs and the work tree through the hiding view.
          fs: full.fs,
          dir: wsfs.dir,
          wsfs,
          origin: "agent",
          env: opts.shellEnv,
          gitTransport: opts.gitTransport,
          limits: opts.shellTimeoutMs ? { timeoutMs: opts.shellTimeoutMs } : undefined,
          defenseInDepth: opts.defenseInDepth,
          python: opts.python,
          node: opts.node,
          packages: opts.packages,
        }),
      )
      .catch((err) => {
        shell = null;
        throw err;
      });
    return shell;
  };
  return {
    wsfs,
    hiddenPaths,
    checkpoints: createCheckpointService(full, { readMany: opts.checkpointReadMany }),
    preview: opts.preview,
    async shell({ readOnly }): Promise<ShellLike> {
      const s = await getShell();
      return readOnly ? s.readOnlyView() : s;
    },
  };
}

/** The name the UI looks for. */
export const createBrowserAgentDeps = createWorkspaceAgentDeps;
