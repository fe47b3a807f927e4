/**
 * Modes as capability profiles (Act, Plan, Review): the profiles and everything projected from
 * them (tool surface, guard, read-only shell, prompt preamble), the Plan-mode command guard, and
 * the modes' own tools and output formats. Framework-free.
 */
export * from "./profiles";
export * from "./command-guard";
export * from "./plan";
export * from "./review";
export * from "./tools";
export { modeSessionOptions, installModeHooks, createModedSession, forkModedSession } from "./session";
export { reviewFromMessages, reviewMarkdown, type ReviewState } from "./review-transcript";
