/**
 * Wiring a session to the mode profiles: the tool list, the policy (the surface and what each
 * call may do: policy-table.ts), the prompt preamble, the read-only workspace and shell, and
 * the labels all come from the one profile of the current mode.
 * Framework-free: the browser panel and Node tests call the same functions. The app makes its
 * sessions with `createModedSession` and `forkModedSession`, so no view can forget the guard.
 */
import { builtinTools } from "../tools";
import { AgentSession, type AgentSessionOptions, type SessionData } from "../agent/session";
import { HookRegistry } from "../agent/hooks";
import type { AgentMode } from "../agent/types";
import type { ToolDefinition } from "../tools/define";
import { createDelegateTool, type DelegateOptions } from "../orchestrate/delegate";
import { defaultProposalInbox } from "../orchestrate/inbox";
import { createProposeOrchestrationTool, PROPOSE_ORCHESTRATION, type OrchestrationCap, type ProposalSink } from "../orchestrate/proposal";
import { modeLabel, modeOutputHooks, modeSwitchNotice, pinnedToolNames, shellIsReadOnly } from "./profiles";
import { modePolicy, systemPromptPreamble, toolsOnSurface } from "./policy-table";
import { modeTools } from "./tools";

/**
 * Where Orchestrate mode's proposals go and the user's limits on a team (default: the app's
 * inbox, default limits); with `delegate`, Agent mode gets the `delegate` tool over that child factory.
 */
export type OrchestrationWiring = {
  proposals?: ProposalSink;
  cap?: () => OrchestrationCap;
  /** The model ids a team role may name (the providers in use); default: not checked. */
  models?: () => readonly string[] | Promise<readonly string[]>;
  delegate?: DelegateOptions;
};

type ModeOptionKeys = "tools" | "surface" | "policy" | "modePreamble" | "isReadOnlyMode" | "modeLabel" | "pinnedTools";

export function modeSessionOptions(wiring: OrchestrationWiring = {}): Pick<AgentSessionOptions, ModeOptionKeys> {
  let own = modeTools();
  if (wiring.proposals || wiring.cap) {
    const names = [...builtinTools(), ...own].map((t) => t.name);
    const propose = createProposeOrchestrationTool({ sink: wiring.proposals ?? defaultProposalInbox.sink(), cap: wiring.cap, toolNames: () => names, models: wiring.models }) as ToolDefinition;
    own = own.map((t) => (t.name === PROPOSE_ORCHESTRATION ? propose : t));
  }
  if (wiring.delegate) own = [...own, createDelegateTool(wiring.delegate) as ToolDefinition];
  const tools = [...builtinTools(), ...own];
  // The genuine definitions, captured now: a plugin that later replaces or drops one by name
  // changes nothing about what a pinned call runs.
  const genuine = new Map(tools.map((t) => [t.name, t]));
  return {
    modeLabel,
    tools,
    surface: toolsOnSurface,
    policy: modePolicy,
    modePreamble: systemPromptPreamble,
    isReadOnlyMode: shellIsReadOnly,
    pinnedTools: (mode) => pinnedToolNames(mode).flatMap((n) => genuine.get(n) ?? []),
  };
}



/**
 * The mode's hooks: the output nudge after the model, and a switch of mode announced to the
 * model in its next request (the policy already applies it to the very next tool call, before
 * any hook).
 */
export function installModeHooks(session: AgentSession): () => void {
  const offOutput = session.hooks.register(modeOutputHooks(() => session.state.mode));
  let switched: { from: AgentMode; to: AgentMode } | undefined;
  const offEvents = session.subscribe((e) => {
    if (e.type === "mode-changed") switched = { from: switched?.from ?? e.from, to: e.to };
  });
  const offBuilder = session.extensions.addMessageBuilder({
    name: "mode-switch-notice",
    build(messages) {
      const change = switched;
      switched = undefined;
      if (!change || change.from === change.to) return messages;
      const now = Date.now();
      return [...messages, { id: `mode-switch-${now}`, createdAt: now, role: "user", kind: "notice", content: [{ type: "text", text: modeSwitchNotice(change.from, change.to) }] }];
    },
  });
  return () => {
    offOutput();
    offEvents();
    offBuilder();
  };
}

type ModedOptions = Omit<AgentSessionOptions, keyof ReturnType<typeof modeSessionOptions>>;

/** A session on the mode profiles with its mode hooks installed: new, or restored from `data`. */
export function createModedSession(options: ModedOptions, data?: SessionData, wiring: OrchestrationWiring = {}): AgentSession {
  const common = { ...options, ...modeSessionOptions(wiring) };
  const session = data ? AgentSession.fromJSON(data, common) : new AgentSession(common);
  installModeHooks(session);
  return session;
}

/**
 * A fork of `session` from `messageId` (the policy comes with its options), with a hook registry
 * of its own (its hooks must read the fork's mode, not the original's) and its mode hooks installed.
 */
export function forkModedSession(session: AgentSession, messageId: string): AgentSession {
  const forked = session.fork(messageId, { hooks: new HookRegistry() });
  installModeHooks(forked);
  return forked;
}
