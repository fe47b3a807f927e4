/**
 * Wiring a session to the mode profiles: the tool list, the prompt preamble, the read-only
 * workspace and shell, and the guards all come from the one profile of the current mode.
 * Framework-free: the browser panel and Node tests call the same functions. The app makes its
 * sessions with `createModedSession` and `forkModedSession`, so no view can forget the guard.
 */
import { builtinTools } from "../tools";
import { AgentSession, type AgentSessionOptions, type SessionData } from "../agent/session";
import { HookRegistry } from "../agent/hooks";
import type { AgentMode } from "../agent/types";
import { modeOutputHooks, modeProfile, modeSwitchNotice, shellIsReadOnly } from "./profiles";
import { systemPromptPreamble, toolsOnSurface } from "./policy-table";
import { modeGuardHooks } from "./policy-guard";
import { modeTools } from "./tools";

export function modeSessionOptions(): Pick<AgentSessionOptions, "tools" | "surface" | "modePreamble" | "isReadOnlyMode" | "modeLabel"> {
  return {
    modeLabel: (mode) => modeProfile(mode).label,
    tools: [...builtinTools(), ...modeTools()],
    surface: toolsOnSurface,
    modePreamble: systemPromptPreamble,
    isReadOnlyMode: shellIsReadOnly,
  };
}

/**
 * The mode guard runs first in beforeTool (before plugins, approvals and the call); the output
 * nudge after the model; and a switch of mode is announced to the model in its next request
 * (the guard already applied it to the very next tool call).
 */
export function installModeHooks(session: AgentSession): () => void {
  const offGuard = session.hooks.register(modeGuardHooks(() => session.state.mode));
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
    offGuard();
    offOutput();
    offEvents();
    offBuilder();
  };
}

type ModedOptions = Omit<AgentSessionOptions, keyof ReturnType<typeof modeSessionOptions>>;

/** A session on the mode profiles with its mode hooks installed: new, or restored from `data`. */
export function createModedSession(options: ModedOptions, data?: SessionData): AgentSession {
  const common = { ...options, ...modeSessionOptions() };
  const session = data ? AgentSession.fromJSON(data, common) : new AgentSession(common);
  installModeHooks(session);
  return session;
}

/**
 * A fork of `session` from `messageId`, with a hook registry of its own (its guard must read the
 * fork's mode, not the original's) and its mode hooks installed.
 */
export function forkModedSession(session: AgentSession, messageId: string): AgentSession {
  const forked = session.fork(messageId, { hooks: new HookRegistry() });
  installModeHooks(forked);
  return forked;
}
