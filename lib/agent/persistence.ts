/**
 * A session's persisted form (SessionData, stored by lib/sessions): written from the session's
 * state and read back into a new one. Deep copies both ways, so the stored data and the live
 * session never share an object. Contains no secrets.
 */
import { clone, type SessionCore } from "./session-core";
import type { SessionData } from "./session-types";

export function toSessionData(core: SessionCore): SessionData {
  const data: SessionData = {
    version: 1,
    id: core.id,
    workspaceId: core.workspaceId,
    title: core.title,
    mode: core.mode,
    createdAt: core.createdAt,
    updatedAt: core.updatedAt,
    messages: clone(core.messages),
    checkpoints: clone(core.checkpoints),
    usage: { ...core.usage },
    runs: clone(core.runs),
    runCount: core.runCount,
    approvals: clone(core.approvals),
  };
  if (core.budgetUsd !== undefined) data.budgetUsd = core.budgetUsd;
  if (core.compaction) data.compaction = { ...core.compaction };
  if (core.lastModel) data.model = { ...core.lastModel };
  if (core.forkedFrom) data.forkedFrom = { ...core.forkedFrom };
  if (core.parent) data.parent = { ...core.parent };
  if (Object.keys(core.findingStatus).length) data.findingStatus = { ...core.findingStatus };
  return data;
}

/** The part of `data` the constructor does not take (id, title, mode, approvals and budget it does). */
export function restoreSessionData(core: SessionCore, data: SessionData): void {
  core.createdAt = data.createdAt;
  core.updatedAt = data.updatedAt;
  core.messages = clone(data.messages);
  core.checkpoints = clone(data.checkpoints);
  core.usage = { ...data.usage };
  core.runs = clone(data.runs ?? []);
  core.runCount = data.runCount;
  core.compaction = data.compaction;
  core.lastModel = data.model;
  core.forkedFrom = data.forkedFrom;
  core.parent = data.parent ? { ...data.parent } : undefined;
  core.findingStatus = { ...(data.findingStatus ?? {}) };
}

/** Refuse data this version cannot read. */
export function assertSessionData(data: SessionData): void {
  if (!data || data.version !== 1) throw new Error("Unsupported session data");
}
