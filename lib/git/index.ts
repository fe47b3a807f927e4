/**
 * Git operations the workbench, the agent's tools and the workspace manager share (status,
 * branches, commits, diffs, ignore rules, remotes, credentials), over isomorphic-git. Every
 * function takes a GitRepo ({ fs, dir, cache?, journal? }) first. It is not the only way to git:
 * the shell's `git` (lib/shell/git) and the share bundle call isomorphic-git directly for forms
 * these helpers do not cover, and the checkpoint engine writes its own objects.
 */
export * from "./types";
export * from "./repo";
export * from "./ignore";
export * from "./status";
export * from "./status-tracker";
export * from "./diff";
export * from "./commit";
export * from "./branches";
export * from "./remote-config";
export * from "./remote-ahead-behind";
export * from "./remote-transfer";
export * from "./credentials";
