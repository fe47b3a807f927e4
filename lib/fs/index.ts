/** Workspace file system: paths, journal, read cache, WorkspaceFs, lightning-fs storage and
 * multi-tab coordination. */
export * from "./types";
export * from "./paths";
export * from "./errors";
export * from "./journal";
export * from "./read-cache";
export * from "./workspace-fs";
export * from "./hidden-view";
export * from "./lightning";
export * from "./listing";
export * from "./tab-coordination";
export * from "./recovery";
export * from "./worktree-stamp";
