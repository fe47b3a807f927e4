/**
 * The hook pipeline: seven points where the mode guard, plugins and the session's own policies act.
 *
 *   beforeRun   { snapshot, prompt }                         → { stop?, reason? }
 *   afterRun    { snapshot, result }                         → void        (completed | aborted | failed)
 *   beforeModel { snapshot, request: { system, messages, tools, modelId, estimatedInputTokens, maxOutputTokens } }
 *                                                            → { stop?, reason?, system?, messages?, tools?, maxOutputTokens? }
 *   afterModel  { snapshot, message, finishReason, usage }   → { stop?, reason?, continueWith? }
 *   beforeTool  { snapshot, tool, toolCall, input }          → { skip?, stop?, reason?, input?, outcome? }
 *   afterTool   { snapshot, tool, toolCall, input, result, durationMs } → { stop?, reason?, result? }
 *   onEvent     event                                        → void        (every event; not awaited)
 *
 * `continueWith` (afterModel, when the model made no tool call): add that text as a notice to
 * the conversation and give the model one more turn instead of ending the run — how Plan mode
 * nudges a model that answered without submitting a plan.
 *
 * Order: ascending `priority` (the mode guard registers at MODE_GUARD_PRIORITY, before
 * everything), then registration order (plugins in load order, default priority 0). The first
 * `skip` or `stop` short-circuits the remaining hooks of that point; `input` replacements chain
 * (each is checked against the tool's schema at once: an invalid one refuses the call).
 *
 * Failure: a hook that throws or exceeds its timeout (default 3 s) is reported as a hook-error
 * event. For beforeTool that refuses the call (fail closed); everywhere else the run goes on.
 * A registration with `propagateErrors` (the session's own policies: budget, loop guard, the
 * checkpoint wait) instead ends the run with its error, as the loop's own errors do.
 *
 * The session's own policies use the same points (./budget.ts, ./loop-guard.ts,
 * ./run-checkpoints.ts): a HookChain runs the session's policy registry and the shared one
 * (plugins, the mode guard) as one chain, the policies last (SESSION_POLICY_PRIORITY).
 */
import type { AgentEvent } from "./events";
import type { AgentMessage } from "./messages";
import type { AgentMode, RunResult, UsageTotals } from "./types";
import type { ToolDefinition, ToolResult } from "../tools/define";

export type HookSnapshot = {
  sessionId: string;
  workspaceId: string;
  runId: string;
  run: number;
  /** Model calls so far in this run (0 before the first). */
  iteration: number;
  /** The mode now (a switch mid-run is seen by the very next hook). */
  mode: AgentMode;
  messages: readonly AgentMessage[];
};

export type ModelRequestView = {
  system: string;
  messages: AgentMessage[];
  /** Names of the tools offered to the model. */
  tools: string[];
  modelId: string;
  /** Input tokens the request holds as it stands (estimated from its characters). */
  estimatedInputTokens: number;
  /** Output tokens the request asks for. */
  maxOutputTokens: number;
};

export type ToolCallView = { id: string; name: string };

export type StopDecision = { stop?: boolean; reason?: string };
/** `maxOutputTokens` can only lower what the request asks for (the budget caps it). */
export type BeforeModelDecision = StopDecision & { system?: string; messages?: AgentMessage[]; tools?: string[]; maxOutputTokens?: number };
export type AfterModelDecision = StopDecision & { continueWith?: string };
/**
 * `outcome` words the refused call's result itself (status "skipped" instead of "blocked", the
 * text the model reads); without it the result says the call was blocked by this hook.
 */
export type BeforeToolDecision = {
  skip?: boolean;
  stop?: boolean;
  reason?: string;
  input?: unknown;
  outcome?: { status: "blocked" | "skipped"; output: string; summary: string };
};
export type AfterToolDecision = StopDecision & { result?: Partial<ToolResult> };

type MaybePromise<T> = T | Promise<T>;

export interface AgentHooks {
  beforeRun?(ctx: { snapshot: HookSnapshot; prompt: string }): MaybePromise<StopDecision | void>;
  afterRun?(ctx: { snapshot: HookSnapshot; result: RunResult }): MaybePromise<void>;
  beforeModel?(ctx: { snapshot: HookSnapshot; request: ModelRequestView }): MaybePromise<BeforeModelDecision | void>;
  afterModel?(ctx: { snapshot: HookSnapshot; message: AgentMessage; finishReason: string; usage: UsageTotals }): MaybePromise<AfterModelDecision | void>;
  beforeTool?(ctx: { snapshot: HookSnapshot; tool: ToolDefinition | undefined; toolCall: ToolCallView; input: unknown }): MaybePromise<BeforeToolDecision | void>;
  afterTool?(ctx: {
    snapshot: HookSnapshot;
    tool: ToolDefinition;
    toolCall: ToolCallView;
    input: unknown;
    result: ToolResult;
    durationMs: number;
  }): MaybePromise<AfterToolDecision | void>;
  onEvent?(event: AgentEvent): MaybePromise<void>;
}

export type HookPoint = keyof AgentHooks;
export const HOOK_POINTS: readonly HookPoint[] = ["beforeRun", "afterRun", "beforeModel", "afterModel", "beforeTool", "afterTool", "onEvent"];

export type HookRegistration = {
  /** Shown in hook-error events ("mode-guard", "plugin:env-blocker", …). */
  name: string;
  hooks: AgentHooks;
  /** Lower runs first; default 0. */
  priority?: number;
  /** Per-call timeout (default 3000 ms; Infinity: none, for hooks that wait for the user). */
  timeoutMs?: number;
  /** Errors end the run instead of being reported (the session's own policies only). */
  propagateErrors?: boolean;
};

/** Priority of the mode guard: before every plugin. */
export const MODE_GUARD_PRIORITY = -1000;
/** Priority of the session's own policies (loop guard, checkpoint wait, budget): after every plugin. */
export const SESSION_POLICY_PRIORITY = 1_000_000;
export const DEFAULT_HOOK_TIMEOUT_MS = 3000;

type Entry = HookRegistration & { order: number };

export type HookFailure = { point: HookPoint; hook: string; message: string };

export class HookRegistry {
  private entries: Entry[] = [];
  private counter = 0;
  private changes = 0;
  private readonly listeners = new Set<() => void>();

  /** Register; returns the function that unregisters. */
  register(reg: HookRegistration): () => void {
    if (!reg || typeof reg.name !== "string" || !reg.hooks || typeof reg.hooks !== "object") {
      throw new TypeError("register({ name, hooks, priority?, timeoutMs? }) needs a name and a hooks object");
    }
    for (const key of Object.keys(reg.hooks)) {
      if (!HOOK_POINTS.includes(key as HookPoint)) throw new TypeError(`Unknown hook point "${key}" in ${reg.name}; known: ${HOOK_POINTS.join(", ")}`);
    }
    const entry: Entry = { ...reg, order: this.counter++ };
    this.entries.push(entry);
    this.entries.sort((a, b) => (a.priority ?? 0) - (b.priority ?? 0) || a.order - b.order);
    this.changed();
    return () => {
      this.entries = this.entries.filter((e) => e !== entry);
      this.changed();
    };
  }

  /** Registrations in the order they run. */
  list(): readonly HookRegistration[] {
    return this.entries;
  }

  has(point: HookPoint): boolean {
    return this.entries.some((e) => typeof e.hooks[point] === "function");
  }

  onChange(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Counts registrations and removals (a HookChain re-merges when it moves). */
  get version(): number {
    return this.changes;
  }

  private changed(): void {
    this.changes++;
    for (const fn of this.listeners) fn();
  }

  /** Run every hook of `point` in order (see `runHookChain`). */
  runChain<C, R>(
    point: Exclude<HookPoint, "onEvent">,
    ctx: () => C,
    step: (result: R | void, name: string) => boolean,
    onFailure: (f: HookFailure) => void,
    failClosed = false,
  ): Promise<HookFailure | undefined> {
    return runHookChain(this.entries, point, ctx, step, onFailure, failClosed);
  }

  /** onEvent: called for every event, not awaited; failures reported through `onFailure`. */
  dispatchEvent(event: AgentEvent, onFailure: (f: HookFailure) => void): void {
    dispatchHookEvent(this.entries, event, onFailure);
  }
}

/**
 * Several registries run as one chain, ordered by priority, then registry, then registration:
 * the session's own policies and the registry it shares with plugins and the mode guard.
 */
export class HookChain {
  private merged: readonly Entry[] = [];
  private points = new Set<HookPoint>();
  private readonly versions: number[];

  constructor(private readonly registries: readonly HookRegistry[]) {
    this.versions = registries.map(() => -1);
  }

  /** The merged entries, rebuilt only when a registry changed since the last call. */
  private entries(): readonly Entry[] {
    let stale = false;
    for (let i = 0; i < this.registries.length; i++) {
      const v = this.registries[i]!.version;
      if (v !== this.versions[i]) {
        this.versions[i] = v;
        stale = true;
      }
    }
    if (stale) {
      const all = this.registries.flatMap((r, i) => r.list().map((e) => ({ e: e as Entry, i })));
      all.sort((a, b) => (a.e.priority ?? 0) - (b.e.priority ?? 0) || a.i - b.i || a.e.order - b.e.order);
      this.merged = all.map((x) => x.e);
      this.points = new Set(HOOK_POINTS.filter((p) => this.merged.some((e) => typeof e.hooks[p] === "function")));
    }
    return this.merged;
  }

  has(point: HookPoint): boolean {
    this.entries();
    return this.points.has(point);
  }

  runChain<C, R>(
    point: Exclude<HookPoint, "onEvent">,
    ctx: () => C,
    step: (result: R | void, name: string) => boolean,
    onFailure: (f: HookFailure) => void,
    failClosed = false,
  ): Promise<HookFailure | undefined> {
    return runHookChain(this.entries(), point, ctx, step, onFailure, failClosed);
  }

  dispatchEvent(event: AgentEvent, onFailure: (f: HookFailure) => void): void {
    dispatchHookEvent(this.entries(), event, onFailure);
  }
}

/**
 * Run every hook of `point` in order. `step` receives each hook's result and returns true to
 * stop the chain. Failures are reported to `onFailure`; with `failClosed` the first failure
 * ends the chain and is returned (the caller then refuses). A `propagateErrors` hook's error
 * is thrown to the caller.
 */
async function runHookChain<C, R>(
  entries: readonly Entry[],
  point: Exclude<HookPoint, "onEvent">,
  ctx: () => C,
  step: (result: R | void, name: string) => boolean,
  onFailure: (f: HookFailure) => void,
  failClosed: boolean,
): Promise<HookFailure | undefined> {
  for (const e of [...entries]) {
    const fn = e.hooks[point] as ((c: C) => R | void | Promise<R | void>) | undefined;
    if (typeof fn !== "function") continue;
    let result: R | void | Promise<R | void>;
    try {
      const ms = e.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS;
      // A hook that answers at once costs no timer (see withTimeout); without a limit, no await either.
      result = Number.isFinite(ms) ? await withTimeout(() => fn.call(e.hooks, ctx()), ms, `${e.name}.${point}`) : fn.call(e.hooks, ctx());
      if (result && typeof (result as Promise<R | void>).then === "function") result = await result;
    } catch (err) {
      if (e.propagateErrors) throw err;
      const failure: HookFailure = { point, hook: e.name, message: errorText(err) };
      onFailure(failure);
      if (failClosed) return failure;
      continue;
    }
    if (step(result as R | void, e.name)) return undefined;
  }
  return undefined;
}

function dispatchHookEvent(entries: readonly Entry[], event: AgentEvent, onFailure: (f: HookFailure) => void): void {
  for (const e of entries) {
    const fn = e.hooks.onEvent;
    if (typeof fn !== "function") continue;
    try {
      const r = fn.call(e.hooks, event);
      if (r && typeof (r as Promise<void>).then === "function") {
        withTimeout(() => r as Promise<void>, e.timeoutMs ?? DEFAULT_HOOK_TIMEOUT_MS, `${e.name}.onEvent`).catch((err) =>
          onFailure({ point: "onEvent", hook: e.name, message: errorText(err) }),
        );
      }
    } catch (err) {
      onFailure({ point: "onEvent", hook: e.name, message: errorText(err) });
    }
  }
}

/**
 * A hook that answers synchronously needs no timer: only a pending promise can outlive its
 * limit. (Setting and clearing a timer per hook per tool call was most of the cost of a chain of
 * quick hooks.) A synchronous throw becomes the returned promise's rejection.
 */
async function withTimeout<T>(fn: () => T | Promise<T>, ms: number, label: string): Promise<T> {
  const result = fn();
  if (!Number.isFinite(ms) || !(result && typeof (result as Promise<T>).then === "function")) return result;
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      result as Promise<T>,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${label} timed out after ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    if (timer !== undefined) clearTimeout(timer);
  }
}

function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
