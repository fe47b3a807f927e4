/**
 * A scripted LanguageModelV4: replays turns (text, reasoning, tool calls, errors) instead of
 * calling a model. It drives the "Demo (scripted)" provider, the unit tests and the bench; the
 * e2e mock server (e2e/helpers/mock-model-server.ts) speaks the same ScriptedTurn shape over
 * real HTTP. Clearly not a model: its provider id is "scripted" (or "demo").
 */
import {
  APICallError,
  type LanguageModelV4,
  type LanguageModelV4CallOptions,
  type LanguageModelV4Prompt,
  type LanguageModelV4StreamPart,
  type LanguageModelV4StreamResult,
} from "@ai-sdk/provider";

export type ScriptedToolCall = {
  name: string;
  /** Arguments (JSON-encoded for the model). */
  args?: unknown;
  /** Raw argument text instead of `args` (to send malformed JSON on purpose). */
  rawArgs?: string;
  id?: string;
};

export type ScriptedTurn = {
  /** Assistant text, streamed in chunks (see `chunkSize`). */
  text?: string;
  /** Explicit text chunks (instead of `text`). */
  chunks?: string[];
  reasoning?: string;
  toolCalls?: ScriptedToolCall[];
  /** Default: "tool-calls" when there are tool calls, else "stop". */
  finishReason?: "stop" | "tool-calls" | "length" | "content-filter" | "error" | "other";
  usage?: { inputTokens?: number; outputTokens?: number; cacheReadTokens?: number };
  /** Delay between stream parts (slow mode, for stop tests). */
  delayMs?: number;
  /** Fail the request itself (no stream): an HTTP-like error. `{}` is a network error. */
  error?: { status?: number; message?: string; body?: string; headers?: Record<string, string> };
  /** Emit an `error` part after the content (a provider error mid-stream). */
  streamError?: string;
  /** End the stream without a finish part after this many parts (a dropped connection). */
  dropAfter?: number;
};

export type ScriptContext = {
  /** Requests this model has received so far (0 for the first). */
  requestIndex: number;
  /** Assistant messages after the last user message of the prompt (0 at the start of a turn). */
  stepInTurn: number;
  /** User messages in the prompt. */
  userMessages: number;
  /** Assistant messages in the whole prompt. */
  assistantMessages: number;
  prompt: LanguageModelV4Prompt;
  /** Tools offered with the request (0 for a request without tools, such as a compaction summary). */
  toolsOffered: number;
  /** Text of the last tool results, when the prompt ends with them. */
  lastToolResult?: string;
};

export type Script = ScriptedTurn[] | ((ctx: ScriptContext) => ScriptedTurn | undefined);

export type ScriptedModelOptions = {
  script: Script;
  modelId?: string;
  provider?: string;
  /** How a turn is chosen from an array: by request count (default) or by step within the user turn. */
  advance?: "per-request" | "per-step";
  /** Played when the script has no turn left. */
  exhausted?: ScriptedTurn;
  /** Characters per text chunk (default 12). */
  chunkSize?: number;
};

const DEFAULT_EXHAUSTED: ScriptedTurn = { text: "(The script has no more turns.)" };

export class ScriptedLanguageModel implements LanguageModelV4 {
  readonly specificationVersion = "v4" as const;
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  /** Every call's options, for assertions. */
  readonly calls: LanguageModelV4CallOptions[] = [];
  private readonly opts: ScriptedModelOptions;
  private script: Script;

  constructor(opts: ScriptedModelOptions) {
    this.opts = opts;
    this.script = opts.script;
    this.provider = opts.provider ?? "scripted";
    this.modelId = opts.modelId ?? "scripted";
  }

  /** Replace the script (the request counter keeps counting). */
  setScript(script: Script): void {
    this.script = script;
  }

  async doGenerate(): Promise<never> {
    throw new Error("The scripted model only streams");
  }

  async doStream(options: LanguageModelV4CallOptions): Promise<LanguageModelV4StreamResult> {
    const requestIndex = this.calls.length;
    this.calls.push(options);
    const ctx = scriptContext(options.prompt, requestIndex, options.tools?.length ?? 0);
    const turn = this.pick(ctx) ?? this.opts.exhausted ?? DEFAULT_EXHAUSTED;
    if (turn.error) {
      const status = turn.error.status;
      throw new APICallError({
        message: turn.error.message ?? `Scripted error${status ? ` (HTTP ${status})` : ""}`,
        url: "scripted://model",
        requestBodyValues: {},
        statusCode: status,
        responseHeaders: turn.error.headers,
        responseBody: turn.error.body ?? (status ? JSON.stringify({ error: { message: turn.error.message ?? `HTTP ${status}` } }) : undefined),
        isRetryable: status === undefined ? true : undefined,
      });
    }
    const parts = turnParts(turn, ctx, this.opts.chunkSize ?? 12);
    return { stream: streamParts(parts, turn.delayMs ?? 0, options.abortSignal, turn.dropAfter) };
  }

  private pick(ctx: ScriptContext): ScriptedTurn | undefined {
    const s = this.script;
    if (typeof s === "function") return s(ctx);
    const i = this.opts.advance === "per-step" ? ctx.stepInTurn : ctx.requestIndex;
    return s[i];
  }
}

export function scriptContext(prompt: LanguageModelV4Prompt, requestIndex: number, toolsOffered = 0): ScriptContext {
  let lastUser = -1;
  let users = 0;
  prompt.forEach((m, i) => {
    if (m.role === "user") {
      lastUser = i;
      users++;
    }
  });
  const stepInTurn = prompt.slice(lastUser + 1).filter((m) => m.role === "assistant").length;
  const last = prompt[prompt.length - 1];
  let lastToolResult: string | undefined;
  if (last?.role === "tool") {
    lastToolResult = last.content
      .map((p) => (p.type === "tool-result" && "value" in p.output && typeof p.output.value === "string" ? p.output.value : ""))
      .join("\n");
  }
  const assistantMessages = prompt.filter((m) => m.role === "assistant").length;
  return { requestIndex, stepInTurn, userMessages: users, assistantMessages, prompt, toolsOffered, lastToolResult };
}

function chunk(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

/** The LanguageModelV4 stream parts of one turn. */
export function turnParts(turn: ScriptedTurn, ctx: ScriptContext, chunkSize: number): LanguageModelV4StreamPart[] {
  const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
  if (turn.reasoning) {
    parts.push({ type: "reasoning-start", id: "r0" });
    for (const c of chunk(turn.reasoning, chunkSize)) parts.push({ type: "reasoning-delta", id: "r0", delta: c });
    parts.push({ type: "reasoning-end", id: "r0" });
  }
  const chunks = turn.chunks ?? (turn.text ? chunk(turn.text, chunkSize) : []);
  if (chunks.length) {
    parts.push({ type: "text-start", id: "t0" });
    for (const c of chunks) parts.push({ type: "text-delta", id: "t0", delta: c });
    parts.push({ type: "text-end", id: "t0" });
  }
  let outChars = chunks.join("").length;
  (turn.toolCalls ?? []).forEach((tc, i) => {
    // Numbered by the conversation, not by this instance: a model made anew for each request
    // (as the settings do) must still give every call of a session its own id.
    const id = tc.id ?? `call_${ctx.assistantMessages}_${i}`;
    const input = tc.rawArgs ?? JSON.stringify(tc.args ?? {});
    outChars += input.length;
    parts.push({ type: "tool-input-start", id, toolName: tc.name });
    parts.push({ type: "tool-input-delta", id, delta: input });
    parts.push({ type: "tool-input-end", id });
    parts.push({ type: "tool-call", toolCallId: id, toolName: tc.name, input });
  });
  if (turn.streamError) parts.push({ type: "error", error: new Error(turn.streamError) });
  const promptChars = JSON.stringify(ctx.prompt).length;
  const input = turn.usage?.inputTokens ?? Math.ceil(promptChars / 4);
  const cacheRead = turn.usage?.cacheReadTokens ?? 0;
  const output = turn.usage?.outputTokens ?? Math.max(1, Math.ceil(outChars / 4));
  parts.push({
    type: "finish",
    finishReason: { unified: turn.finishReason ?? (turn.toolCalls?.length ? "tool-calls" : "stop"), raw: undefined },
    usage: {
      inputTokens: { total: input + cacheRead, noCache: input, cacheRead, cacheWrite: 0 },
      outputTokens: { total: output, text: output, reasoning: undefined },
    },
  });
  return parts;
}

function streamParts(parts: LanguageModelV4StreamPart[], delayMs: number, signal: AbortSignal | undefined, dropAfter: number | undefined): ReadableStream<LanguageModelV4StreamPart> {
  let i = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return new ReadableStream<LanguageModelV4StreamPart>({
    async pull(controller) {
      if (signal?.aborted) {
        controller.error(abortErr());
        return;
      }
      if (dropAfter !== undefined && i >= dropAfter) {
        controller.error(Object.assign(new TypeError("terminated"), { cause: new Error("other side closed") }));
        return;
      }
      if (i >= parts.length) {
        controller.close();
        return;
      }
      if (delayMs > 0 && i > 0) {
        const aborted = await new Promise<boolean>((resolve) => {
          const onAbort = () => {
            clearTimeout(timer);
            resolve(true);
          };
          timer = setTimeout(() => {
            signal?.removeEventListener("abort", onAbort);
            resolve(false);
          }, delayMs);
          signal?.addEventListener("abort", onAbort, { once: true });
        });
        if (aborted) {
          controller.error(abortErr());
          return;
        }
      }
      controller.enqueue(parts[i++]!);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
    },
  });
}

function abortErr(): Error {
  const e = new Error("The operation was aborted");
  e.name = "AbortError";
  return e;
}
