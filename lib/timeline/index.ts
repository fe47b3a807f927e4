/** The checkpoint timeline: ticks, previews, restores with undo, save points, workspace history. */
export { buildTimeline, conversationAt, groupTicks, mergeTicks, runNumberOf, type Tick, type TickGroup } from "./model";
export { previewTick, previewFromDiff, lineCounts, isBinary, type Preview, type PreviewFile } from "./preview";
export { Timeline, type ChildGroup, type TimelineSession, type RestoreChoice, type RestoreOutcome, type TimelineOptions } from "./timeline";
export { workspaceHistory, titleOf, type HistoryEntry } from "./history";
export type { RunChanges, RunChangeFile } from "./run-changes";
