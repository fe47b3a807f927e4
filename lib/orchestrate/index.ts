/**
 * Orchestrate mode's core: the proposal (propose_orchestration's schema and checks), the
 * operator-only inbox it waits in, the deterministic materialiser, the schedule and the running
 * team. Framework-free: the panel and the Node tests use the same objects.
 */
export * from "./proposal";
export * from "./inbox";
export * from "./materialise";
export * from "./scheduler";
export * from "./team";
export * from "./delegate";
export { proposalApprovedNotice, proposalRejectedNotice, teamFromApproved } from "./start";
export * from "./from-plan";
export * from "./record";
export * from "./child-hooks";
