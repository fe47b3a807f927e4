/**
 * Modes as capability profiles (Act, Plan, Review): the profiles, the policy table projected
 * from them (tool surface, guard, prompt preamble, decisions), the Plan-mode command guard, and
 * the modes' own tools and output formats. Framework-free.
 */
export * from "./profiles";
export * from "./policy";
export * from "./policy-table";
export * from "./policy-guard";
export * from "./command-guard";
export * from "./plan";
export * from "./review";
export * from "./tools";
export { modeSessionOptions, installModeHooks, createModedSession, forkModedSession } from "./session";
export { reviewFromMessages, reviewMarkdown, EMPTY_REVIEW, type ReviewState } from "./review-transcript";
