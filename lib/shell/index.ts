/**
 * The workspace shell (just-bash + a git command) for the terminal and the agent's
 * run_commands tool. Framework-free; just-bash itself is loaded lazily by createShell.
 */
export { createShell, loadJustBash, SHELL_BUILTINS } from "./shell";
export type { CreateShellOptions, Shell, ShellExecOptions, ShellResult } from "./shell";
export { DEFAULT_MOUNT_POINT, normalizeShellPath, relativePath, resolveShellPath, toShellPath, toWorkspacePath } from "./paths";
export { capOutput, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, truncationMarker } from "./limits";
export type { ShellLimits } from "./limits";
export { WorkspaceShellFs } from "./adapter";
export type { DeniedWrite, WorkspaceShellFsOptions } from "./adapter";
export { completions } from "./completions";
export type { Completion } from "./completions";
export { CommandHistory } from "./history";
export type { CommandHistoryJSON } from "./history";
export { GIT_SUBCOMMANDS, runGit } from "./git";
