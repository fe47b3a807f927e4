/**
 * File hooks: scripts in `.tabula/hooks/` named after events (`PreToolUse.js`, …), each a
 * module whose default export receives a JSON payload and may answer `{ cancel: true, reason }`.
 * They are mapped onto the runtime hooks and run in the sandbox as one generated plugin.
 *
 *   TaskStart        beforeRun of a session's first run      cancel → the run stops
 *   TaskResume       beforeRun of every later run            cancel → the run stops
 *   UserPromptSubmit beforeRun, with the prompt              cancel → the run stops
 *   PreToolUse       beforeTool                              cancel → this call is refused
 *   PostToolUse      afterTool                               cancel → the run stops
 *   TaskComplete / TaskError / TaskCancel   afterRun (completed / failed / aborted)
 *   SessionShutdown  onEvent "session-closed" (the panel leaves the session)
 */
export const FILE_HOOK_EVENTS = ["TaskStart", "TaskResume", "UserPromptSubmit", "PreToolUse", "PostToolUse", "TaskComplete", "TaskError", "TaskCancel", "SessionShutdown"] as const;
export type FileHookEvent = (typeof FILE_HOOK_EVENTS)[number];

/** The event a file in .tabula/hooks/ stands for ("PreToolUse.js" → "PreToolUse"). */
export function fileHookEvent(fileName: string): FileHookEvent | undefined {
  const m = /^([A-Za-z]+)\.(?:m?js)$/.exec(fileName);
  return m && (FILE_HOOK_EVENTS as readonly string[]).includes(m[1]!) ? (m[1] as FileHookEvent) : undefined;
}

/**
 * A hook file as a statement of the generated plugin: its `export default` becomes an assignment,
 * in a block of its own (so two files may use the same names). Imports are refused by the
 * sandbox like in any plugin.
 */
function hookStatement(name: FileHookEvent, source: string): string {
  if (!/\bexport\s+default\s+/.test(source)) return `{ __hooks[${JSON.stringify(name)}] = () => { throw new Error(".tabula/hooks/${name}.js must export a default function"); }; }`;
  return `{\n${source.replace(/\bexport\s+default\s+/, `__hooks[${JSON.stringify(name)}] = `)}\n}`;
}

/** The source of a sandboxed plugin running the given hook files. */
export function fileHooksPluginSource(files: Partial<Record<FileHookEvent, string>>): string {
  const has = (e: FileHookEvent) => e in files;
  const beforeRun = has("TaskStart") || has("TaskResume") || has("UserPromptSubmit");
  const afterRun = has("TaskComplete") || has("TaskError") || has("TaskCancel");
  return `
const __hooks = {};
${Object.entries(files)
  .map(([k, v]) => hookStatement(k as FileHookEvent, v!))
  .join("\n")}
async function run(name, payload) {
  const fn = __hooks[name];
  if (!fn) return undefined;
  if (typeof fn !== "function") throw new Error(".tabula/hooks/" + name + " must export a default function");
  return await fn({ hookName: name, ...payload });
}
const why = (name, r) => (r && (r.reason || r.errorMessage)) || "Blocked by .tabula/hooks/" + name;
const hooks = {};
${
  beforeRun
    ? `hooks.beforeRun = async ({ snapshot, prompt }) => {
  const base = { sessionId: snapshot.sessionId, run: snapshot.run, mode: snapshot.mode };
  for (const name of [snapshot.run === 1 ? "TaskStart" : "TaskResume", "UserPromptSubmit"]) {
    const r = await run(name, { ...base, prompt });
    if (r && r.cancel) return { stop: true, reason: why(name, r) };
  }
};`
    : ""
}
${has("PreToolUse") ? `hooks.beforeTool = async ({ snapshot, toolCall, input }) => { const r = await run("PreToolUse", { sessionId: snapshot.sessionId, mode: snapshot.mode, tool: toolCall.name, toolCallId: toolCall.id, input }); if (r && r.cancel) return { skip: true, reason: why("PreToolUse", r) }; };` : ""}
${has("PostToolUse") ? `hooks.afterTool = async ({ snapshot, toolCall, input, result, durationMs }) => { const r = await run("PostToolUse", { sessionId: snapshot.sessionId, tool: toolCall.name, input, output: result.output, isError: !!result.isError, durationMs }); if (r && r.cancel) return { stop: true, reason: why("PostToolUse", r) }; };` : ""}
${
  afterRun
    ? `hooks.afterRun = async ({ snapshot, result }) => { const name = result.status === "completed" ? "TaskComplete" : result.status === "failed" ? "TaskError" : "TaskCancel"; await run(name, { sessionId: snapshot.sessionId, status: result.status, reason: result.reason, summary: result.summary }); };`
    : ""
}
${has("SessionShutdown") ? `hooks.onEvent = async (e) => { if (e.type === "session-closed") await run("SessionShutdown", { sessionId: e.sessionId }); };` : ""}
export default { name: "file-hooks", manifest: { capabilities: ["hooks"] }, hooks };
`;
}
