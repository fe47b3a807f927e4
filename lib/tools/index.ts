/**
 * Built-in agent tools, one file per tool (zod input schema, effect classes, the description the
 * model reads, execute). `builtinTools()` is the default tool list of a session; the modes issue
 * filters it per mode from `effects`, plugins add theirs.
 */
export * from "./define";
export { headTail, headOnly, previewFile, resolvePath } from "./util";
export { readFilesTool, type ReadFilesInput } from "./read-files";
export { listFilesTool, type ListFilesInput } from "./list-files";
export { searchCodebaseTool, type SearchCodebaseInput } from "./search-codebase";
export { editorTool, type EditorInput } from "./editor";
export { applyPatchTool, type ApplyPatchInput } from "./apply-patch";
export { runCommandsTool, commandList, type RunCommandsInput } from "./run-commands";
export { askQuestionTool, type AskQuestionInput } from "./ask-question";
export { attemptCompletionTool, type AttemptCompletionInput } from "./attempt-completion";
export { previewTool, type PreviewInput } from "./preview";

import type { ToolDefinition } from "./define";
import { readFilesTool } from "./read-files";
import { listFilesTool } from "./list-files";
import { searchCodebaseTool } from "./search-codebase";
import { editorTool } from "./editor";
import { applyPatchTool } from "./apply-patch";
import { runCommandsTool } from "./run-commands";
import { askQuestionTool } from "./ask-question";
import { attemptCompletionTool } from "./attempt-completion";
import { previewTool } from "./preview";

/** Name of the built-in completion tool. */
export const COMPLETION_TOOL = "attempt_completion";

/** The built-in tools, in the order they are offered to the model. */
export function builtinTools(): ToolDefinition[] {
  return [readFilesTool, listFilesTool, searchCodebaseTool, editorTool, applyPatchTool, runCommandsTool, previewTool, askQuestionTool, attemptCompletionTool] as ToolDefinition[];
}
