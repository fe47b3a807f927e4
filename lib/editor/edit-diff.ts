import { applyPatch, parsePatch, reversePatch } from "diff";

/**
 * The file as it was before an edit, from its current text and the edit's unified diff: the
 * diff reversed and applied. Undefined when the file has changed since in the edited places,
 * so the caller can fall back to another baseline (HEAD).
 */
export function textBeforeEdit(current: string, unifiedDiff: string): string | undefined {
  const patches = parsePatch(unifiedDiff);
  if (patches.length !== 1 || patches[0].hunks.length === 0) return undefined;
  const before = applyPatch(current, reversePatch(patches[0]));
  return before === false ? undefined : before;
}
