/**
 * Wiring a session to the mode profiles: the tool list, the prompt preamble, the read-only
 * workspace and shell, and the guards all come from the one profile of the current mode.
 * Framework-free: the browser panel and Node tests call the same two functions.
 */
import { builtinTools } from "../tools";
import type { AgentSession, AgentSessionOptions } from "../agent";
import { modeGuardHooks, modeOutputHooks, shellIsReadOnly, systemPromptPreamble, toolsOnSurface } from "./profiles";
import { modeTools } from "./tools";

export function modeSessionOptions(): Pick<AgentSessionOptions, "tools" | "surface" | "modePreamble" | "isReadOnlyMode"> {
  return {
    tools: [...builtinTools(), ...modeTools()],
    surface: toolsOnSurface,
    modePreamble: systemPromptPreamble,
    isReadOnlyMode: shellIsReadOnly,
  };
}

/** The mode guard runs first in beforeTool (before plugins, approvals and the call); the output nudge after the model. */
export function installModeHooks(session: AgentSession): () => void {
  const offGuard = session.hooks.register(modeGuardHooks(() => session.mode));
  const offOutput = session.hooks.register(modeOutputHooks(() => session.mode));
  return () => {
    offGuard();
    offOutput();
  };
}
