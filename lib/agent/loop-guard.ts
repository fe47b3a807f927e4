/**
 * The loop guard: when the model makes the same call with the same arguments N times in a row
 * (default 3), the user is asked whether to go on. Hooks of the session's own, registered like
 * a plugin's: the streak counts every call the model makes, as it made it (onEvent sees each
 * tool-call-started, so a call refused on the way breaks the streak); beforeTool asks, after
 * the plugins' checks. Continue starts the count over; stop ends the run.
 */
import { callApproval } from "../tools/define";
import { SESSION_POLICY_PRIORITY, type HookRegistration } from "./hooks";
import { stableStringify } from "./ids";
import type { Interactions } from "./interactions";
import type { SessionCore } from "./session-core";

export const DEFAULT_LOOP_GUARD_THRESHOLD = 3;

export function loopGuardHooks(core: SessionCore, interactions: Interactions): HookRegistration {
  const threshold = core.opts.loopGuardThreshold ?? DEFAULT_LOOP_GUARD_THRESHOLD;
  let runId: string | undefined;
  let lastKey: string | undefined;
  let count = 0;
  return {
    name: "loop-guard",
    priority: SESSION_POLICY_PRIORITY,
    timeoutMs: Infinity,
    propagateErrors: true,
    hooks: {
      onEvent(e) {
        if (e.type !== "tool-call-started") return;
        if (e.runId !== runId) {
          runId = e.runId;
          lastKey = undefined;
        }
        const key = `${e.toolName}\u0000${stableStringify(e.input)}`;
        count = key === lastKey ? count + 1 : 1;
        lastKey = key;
      },
      async beforeTool({ tool, toolCall, input }) {
        const state = core.active;
        if (!state || !tool || count < threshold) return;
        const answer = await interactions.requestApproval(state, {
          kind: "loop-guard",
          toolCallId: toolCall.id,
          toolName: tool.name,
          category: callApproval(tool, input),
          input,
          message: `The agent called ${tool.name} with the same arguments ${count} times in a row. Continue anyway, or stop the run?`,
        });
        if (!answer.approved) {
          const why = "The user stopped the run at the loop guard (the same call repeated)";
          return { stop: true, reason: why, outcome: { status: "skipped", output: `Not executed: ${why}.`, summary: "Stopped by the loop guard" } };
        }
        count = 0;
      },
    },
  };
}
