/**
 * The agent core: sessions, the run loop, hooks, approvals, usage, compaction. Framework-free;
 * runs in the browser tab and in Node tests. The loop talks to the UI only through events it
 * emits and commands it accepts; the UI reads `session.state` (conversation, usage, settings,
 * pending requests) and goes back in time through `session.history`.
 *
 * How the UI wires a session (browser, real dependencies, the model from settings):
 *
 *   import { AgentSession, createBrowserAgentDeps } from "@/lib/agent";
 *   import { ProviderSettingsStore } from "@/lib/providers";
 *   import { SessionStore, attachAutosave } from "@/lib/sessions";
 *
 *   // 1. dependencies, once per open workspace (wsfs from WorkspaceManager.open)
 *   const deps = createBrowserAgentDeps({ wsfs });
 *   const settings = new ProviderSettingsStore(localStorage);
 *   await settings.load();
 *
 *   // 2. a session (or AgentSession.fromJSON(await store.load(id), {...}) to resume one)
 *   const session = new AgentSession({
 *     deps,
 *     workspaceId,
 *     model: settings.modelSource(),          // the model chosen per mode; the Demo by default
 *     prices: await settings.prices(),
 *     redact: settings.redact,                // keys never reach an event
 *   });
 *   const store = new SessionStore(indexedDB, { secrets: () => settings.secrets() });
 *   attachAutosave(session, store);
 *
 *   // 3. subscribe: render events
 *   const off = session.subscribe((e) => {
 *     switch (e.type) {
 *       case "text-delta": appendText(e.messageId, e.delta); break;
 *       case "tool-call-started": addToolRow(e); break;
 *       case "tool-call-finished": finishToolRow(e); break;
 *       case "approval-requested": showApprovalCard(e); break;   // e.preview: diff or commands
 *       case "question-asked": showQuestion(e); break;
 *       case "checkpoint-created": markCheckpoint(e.run, e.ref); break;
 *       case "usage": updateMeter(e.session); break;
 *       case "run-finished": setIdle(e.status, e.reason); break;
 *       // …see ./events.ts for the whole union
 *     }
 *   });
 *
 *   // 4. run a turn (or a slash command: /compact /clear /undo /mode plan|act|review)
 *   const result = await session.run("Add a test for greet()");
 *
 *   // 5. answer what the run waits for
 *   session.approve(approvalId);                            // or { alwaysAllowPrefix: "npm test" }
 *   session.reject(approvalId, "Use a template literal instead");
 *   session.answer(questionId, "Option B");
 *   session.stop();                                          // stream aborted, command cancelled
 *   session.setMode("plan");                                 // seen by the very next tool call
 *
 * Any LanguageModelV4 can be the model: `model: createDemoModel()` (lib/providers, no key),
 * `model: new MockLanguageModelV4(...)` in tests, or a handle for the e2e mock model server:
 * `await createModel({ id: "mock", kind: "anthropic", label: "Mock", baseURL: server.url + "/v1",
 * apiKey: "test" }, "claude-sonnet-4-5")`.
 */
export { AgentSession, ALL_TOOLS_SURFACE, toolSpec } from "./session";
export type { AgentSessionOptions, ApprovalSettingsPatch, ConversationSnapshot, SessionData, SessionParent, SessionSettingsPatch, SessionState, SlashCommand, SlashCommandResult, ToolSurface, RunRecord } from "./session";
export * from "./events";
export * from "./types";
export {
  HookChain,
  HookRegistry,
  HOOK_POINTS,
  MODE_GUARD_PRIORITY,
  SESSION_POLICY_PRIORITY,
  DEFAULT_HOOK_TIMEOUT_MS,
  type AgentHooks,
  type AfterModelDecision,
  type AfterToolDecision,
  type BeforeModelDecision,
  type BeforeToolDecision,
  type HookPoint,
  type HookRegistration,
  type HookSnapshot,
  type ModelRequestView,
  type StopDecision,
  type ToolCallView,
} from "./hooks";
export * from "./messages";
export {
  compactionBuilder,
  compactNow,
  applyCompaction,
  summarize,
  DEFAULT_COMPACTION,
  type CompactionOptions,
  type CompactionState,
  type MessageBuilder,
  type MessageBuilderContext,
} from "./compaction";
export { priceFor, resolvePrice, isPrice, costOf, addUsage, usageFromProvider, formatCost, type ModelPrice, type PriceTable, type PriceSource } from "./pricing";
export { catalogFacts, modelIdForms, UNKNOWN_CONTEXT_WINDOW, type ModelFacts } from "./model-catalog";
export { DEFAULT_RETRY, classifyError, retryDelay, retryAfterMs, corsHint, isLocalURL, type RetryOptions } from "./errors";
export { isAutoApproved, isSimpleCommand, matchesAllowedPrefix, suggestPrefix } from "./approvals";
export { buildSystemPrompt, type RuleSource, type SystemPromptInput } from "./prompt";
export { discoverRules, loadWorkspaceRules, selectRules, type RuleEntry, type RuleFile, type RuleStatus } from "./rules";
export { RuleSwitches } from "./rules-settings";
export type { ContextItem, EditorSelection, MentionSources } from "./mentions-context";
export { contextWindowFor, resolveModel, isLanguageModel, type ModelHandle, type ModelSource } from "./model-handle";
export { streamModelStep, StreamFailure, type StreamedStep } from "./model-stream";
export { createWorkspaceAgentDeps, createBrowserAgentDeps, createCheckpointService, type WorkspaceAgentDepsOptions } from "./workspace-deps";
export { stableStringify, newSessionId } from "./ids";
