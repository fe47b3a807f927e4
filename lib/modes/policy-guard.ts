/**
 * The mode's rules of the policy table (policy-table.ts) as a plain guard function and as a
 * `beforeTool` hook registration, for code that checks calls outside a session's tool pipeline
 * (a session made with lib/modes asks `modePolicy.admit` itself, before any hook, so it needs
 * neither). Same table, same reasons: an edit or a writing command in Plan is refused.
 *
 * Framework-free.
 */
import { MODE_GUARD_PRIORITY, type AgentHooks, type BeforeToolDecision, type HookRegistration } from "../agent/hooks";
import type { AgentMode } from "../agent/types";
import { prepareCommandGuard } from "./command-guard";
import type { GuardedCall } from "./policy";
import { admit, policyCall } from "./policy-table";
import { MODE_PROFILES } from "./profiles";

export type ModeGuardDecision = { skip: true; reason: string };
export type ModeGuard = (call: GuardedCall) => ModeGuardDecision | undefined;

/**
 * The mode guard: refuses a call the mode's rules deny, with the rule's reason (naming the mode
 * and what to do instead). `getMode` is read on every call, so a switch mid-run is seen by the
 * very next call. Synchronous: until `prepareCommandGuard()` has loaded the parser, commands are
 * refused in a read-only mode.
 */
export function createModeGuard(getMode: () => AgentMode): ModeGuard {
  return (call) => {
    const d = admit(policyCall(call), getMode());
    return d.action === "deny" ? { skip: true, reason: d.reason ?? `${call.name} was refused in ${String(getMode())} mode.` } : undefined;
  };
}

/** How long the guard may take on its first call (loading the parser). */
export const MODE_GUARD_TIMEOUT_MS = 20_000;

/**
 * The mode guard as a hook registration (priority before every plugin). Its `beforeTool` loads
 * the command parser itself when a command has to be checked. `getMode` defaults to the mode in
 * the hook's snapshot.
 */
export function modeGuardHooks(getMode?: () => AgentMode): HookRegistration {
  const hooks: AgentHooks = {
    async beforeTool(ctx): Promise<BeforeToolDecision | void> {
      const mode = getMode ? getMode() : ctx.snapshot.mode;
      const call: GuardedCall = { name: ctx.toolCall.name, input: ctx.input, tool: ctx.tool };
      if (MODE_PROFILES[mode]?.worktree === "read-only" && policyCall(call).runsCommands) {
        await prepareCommandGuard().catch(() => undefined); // a failure leaves the guard refusing
      }
      return createModeGuard(() => mode)(call);
    },
  };
  return { name: "mode-guard", priority: MODE_GUARD_PRIORITY, timeoutMs: MODE_GUARD_TIMEOUT_MS, hooks };
}
