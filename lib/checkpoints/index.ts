/**
 * The checkpoint engine: whole-working-tree snapshots as git commits under refs/tabula/,
 * transactional restore with undo and crash recovery, pruning.
 *
 * Every function takes `ws = { fs, dir }` (any IsoFs: node's fs or lightning-fs; the git dir is
 * `<dir>/.git`), optionally with `journal` (lib/fs ChangeJournal) and `readMany` as
 * accelerators. The engine is correct without them, including after files changed behind its
 * back. Framework-free; nothing runs at import time. See README.md.
 */
export type { Workspace, ReadMany, ListDir } from "./engine";
export { DEFAULT_MAX_FILE_BYTES, __testing } from "./engine";
export { lightningReadMany } from "./lightning-read";
export { syncReadMany, syncListDir } from "./node-read";
export {
  createCheckpoint,
  listCheckpoints,
  diffCheckpoints,
  diffWorkingTree,
  readFileAt,
  readBlobs,
  CHECKPOINT_PREFIX,
  RESTORE_PREFIX,
  type Checkpoint,
  type CheckpointInfo,
  type CheckpointKind,
  type CheckpointStats,
  type CreateOptions,
  type DiffEntry,
  type Run,
} from "./checkpoint";
export {
  restoreCheckpoint,
  undoRestore,
  recoverInterruptedRestore,
  type RestoreOptions,
  type RestoreResult,
  type RestoreChange,
  type RecoveryResult,
  type SkipReason,
} from "./restore";
export { annotateCheckpoint, type AnnotateOptions } from "./annotate";
export { pruneCheckpoints, checkpointStorage, type PruneOptions, type PruneResult, type StorageReport } from "./prune";
export { CheckpointError, type CheckpointErrorCode } from "./util";
