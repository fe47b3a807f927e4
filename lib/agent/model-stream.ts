/**
 * One model request: call `doStream` of any LanguageModelV4 (the loop never knows which
 * provider it is) and fold the stream parts into a step result, forwarding text and reasoning
 * deltas as they arrive. Stopping is honoured even by a model that ignores its abort signal.
 */
import type { LanguageModelV4, LanguageModelV4CallOptions, LanguageModelV4StreamPart, LanguageModelV4Usage } from "@ai-sdk/provider";
import { abortError } from "./errors";

export type StreamedToolCall = { toolCallId: string; toolName: string; input: string };

export type StreamedStep = {
  text: string;
  reasoning: string;
  toolCalls: StreamedToolCall[];
  /** Unified finish reason ("stop", "tool-calls", "length", …); "unknown" when none came. */
  finishReason: string;
  usage?: LanguageModelV4Usage;
  /** `error` parts the provider streamed (malformed chunks, server errors mid-stream). */
  streamErrors: unknown[];
  /** Any text, reasoning or tool call arrived. */
  receivedContent: boolean;
  /** The provider accepted the request and began to answer (the input is billed from here on). */
  streamOpened: boolean;
  /** Characters of output received (text, reasoning, tool arguments): an estimate of what a cut stream cost. */
  outputChars: number;
  sawFinish: boolean;
  responseModelId?: string;
};

export class StreamFailure extends Error {
  constructor(
    readonly error: unknown,
    readonly partial: StreamedStep,
  ) {
    super(error instanceof Error ? error.message : String(error));
    this.name = "StreamFailure";
  }
}

export type StreamHandlers = {
  onText?(delta: string): void;
  onReasoning?(delta: string): void;
  /** Called right after doStream was invoked (the request is on its way). */
  onRequestStarted?(): void;
};

export function emptyStep(): StreamedStep {
  return { text: "", reasoning: "", toolCalls: [], finishReason: "unknown", streamErrors: [], receivedContent: false, streamOpened: false, outputChars: 0, sawFinish: false };
}

/**
 * Run one streaming call. Resolves with the step when the stream finishes; rejects with a
 * StreamFailure (carrying the partial step) on an error, an AbortError when `signal` aborts.
 * `step` is filled as parts arrive: a caller that keeps it knows what a stopped request got.
 */
export async function streamModelStep(
  model: LanguageModelV4,
  options: LanguageModelV4CallOptions,
  signal: AbortSignal,
  handlers: StreamHandlers = {},
  step: StreamedStep = emptyStep(),
): Promise<StreamedStep> {
  if (signal.aborted) throw abortError();
  const pending = Promise.resolve(model.doStream({ ...options, abortSignal: signal }));
  handlers.onRequestStarted?.();
  let reader: ReadableStreamDefaultReader<LanguageModelV4StreamPart>;
  try {
    const result = await raceAbort(pending, signal);
    reader = result.stream.getReader();
    step.streamOpened = true;
  } catch (err) {
    if (signal.aborted) throw abortError();
    throw new StreamFailure(err, step);
  }

  const onAbort = () => {
    reader.cancel().catch(() => undefined);
  };
  signal.addEventListener("abort", onAbort, { once: true });
  try {
    for (;;) {
      let chunk: ReadableStreamReadResult<LanguageModelV4StreamPart>;
      try {
        chunk = await raceAbort(reader.read(), signal);
      } catch (err) {
        if (signal.aborted) throw abortError();
        throw new StreamFailure(err, step);
      }
      if (chunk.done) break;
      const part = chunk.value;
      switch (part.type) {
        case "text-delta":
          if (part.delta) {
            step.text += part.delta;
            step.outputChars += part.delta.length;
            step.receivedContent = true;
            handlers.onText?.(part.delta);
          }
          break;
        case "reasoning-delta":
          if (part.delta) {
            step.reasoning += part.delta;
            step.outputChars += part.delta.length;
            step.receivedContent = true;
            handlers.onReasoning?.(part.delta);
          }
          break;
        case "tool-call":
          if (!part.providerExecuted) {
            step.toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
            step.receivedContent = true;
          }
          break;
        case "tool-input-start":
          step.receivedContent = true;
          break;
        case "tool-input-delta":
          step.outputChars += part.delta.length;
          break;
        case "response-metadata":
          if (part.modelId) step.responseModelId = part.modelId;
          break;
        case "finish":
          step.sawFinish = true;
          step.finishReason = part.finishReason?.unified ?? "other";
          step.usage = part.usage;
          break;
        case "error":
          step.streamErrors.push(part.error);
          break;
        default:
          break;
      }
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
    try {
      reader.releaseLock();
    } catch {
      // a pending read after cancel: nothing to release
    }
  }
  if (signal.aborted) throw abortError();
  if (step.streamErrors.length > 0) throw new StreamFailure(step.streamErrors[0], step);
  if (!step.sawFinish) {
    const err = new Error(
      step.receivedContent
        ? "The response stream ended before the model finished (connection dropped mid-response)"
        : "The provider's response contained no model output (not a valid event stream — check the base URL)",
    );
    err.name = step.receivedContent ? "StreamInterrupted" : "AI_InvalidResponseDataError";
    throw new StreamFailure(err, step);
  }
  return step;
}

function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
