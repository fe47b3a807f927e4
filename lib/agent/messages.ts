/**
 * The session's conversation, as plain JSON (it is persisted as is), and its conversion to the
 * provider-neutral prompt of the AI SDK's LanguageModelV4 spec. Messages carry UI metadata
 * (ids, run numbers, tool-row summaries) that never reaches the model.
 */
import type { LanguageModelV4Message, LanguageModelV4Prompt } from "@ai-sdk/provider";
import { contextBlock, type ContextItem } from "./mentions-context";
import { IMAGE_TOKEN_ESTIMATE, imageParts, type ImageAttachment } from "./images";

export type TextPart = { type: "text"; text: string };
export type ReasoningPart = { type: "reasoning"; text: string };
export type ToolCallPart = { type: "tool-call"; toolCallId: string; toolName: string; input: unknown };
export type ToolOutput = { type: "text"; value: string } | { type: "error-text"; value: string };

/** How a tool call ended, for the transcript. */
export type ToolCallStatus = "ok" | "error" | "blocked" | "rejected" | "skipped" | "aborted";

export type ToolResultPart = {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: ToolOutput;
  /** For the UI only (stripped before the model sees the message). */
  ui?: {
    status: ToolCallStatus;
    summary?: string;
    blockedByPolicy?: boolean;
    data?: Record<string, unknown>;
    durationMs?: number;
  };
};

type Base = {
  id: string;
  createdAt: number;
  /** The run (1-based) this message belongs to. */
  run?: number;
};

export type UserMessage = Base & {
  role: "user";
  content: TextPart[];
  /** prompt: typed by the user (editable, a fork point); summary: a compaction summary;
   * notice: a note from the app or a hook (a nudge, a mode switch). */
  kind?: "prompt" | "summary" | "notice";
  /** What the prompt's @-mentions resolved to when it was sent (./mentions-context.ts): the model
   * reads it after the text, the transcript shows it as chips. */
  context?: ContextItem[];
  /** Images sent with the prompt (./images.ts): the model gets them before the text. */
  images?: ImageAttachment[];
  /** Images this prompt had that were left out (of a share link). */
  imagesLeftOut?: number;
};

export type AssistantMessage = Base & {
  role: "assistant";
  content: (TextPart | ReasoningPart | ToolCallPart)[];
  modelId?: string;
  finishReason?: string;
  /** The stream was cut (stop, error): the text is partial. */
  interrupted?: boolean;
};

export type ToolMessage = Base & { role: "tool"; content: ToolResultPart[] };

export type AgentMessage = UserMessage | AssistantMessage | ToolMessage;

export function textOf(message: AgentMessage): string {
  if (message.role === "tool") return message.content.map((p) => p.output.value).join("\n");
  return (message.content as (TextPart | ReasoningPart | ToolCallPart)[])
    .filter((p): p is TextPart => p.type === "text")
    .map((p) => p.text)
    .join("");
}

export function toolCallsOf(message: AgentMessage): ToolCallPart[] {
  return message.role === "assistant" ? message.content.filter((p): p is ToolCallPart => p.type === "tool-call") : [];
}

/**
 * The built-in safety pass that runs last: every tool call gets exactly one result right after
 * its assistant message (providers reject anything else), orphan results and empty messages go.
 * Pure: returns new arrays, never mutates the session's messages.
 */
export function sanitizeForModel(messages: readonly AgentMessage[]): AgentMessage[] {
  const out: AgentMessage[] = [];
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === "tool") continue; // attached to their assistant message below
    if (m.role === "user") {
      if (m.content.some((p) => p.text.trim() !== "") || m.images?.length) out.push(m);
      continue;
    }
    const calls = toolCallsOf(m);
    const kept = m.content.filter((p) => p.type !== "reasoning" && !(p.type === "text" && p.text === ""));
    if (kept.length === 0) continue;
    out.push({ ...m, content: kept });
    if (calls.length === 0) continue;
    // Collect results from the tool messages that follow, up to the next assistant/user message.
    const results = new Map<string, ToolResultPart>();
    for (let j = i + 1; j < messages.length && messages[j]!.role === "tool"; j++) {
      for (const r of (messages[j] as ToolMessage).content) results.set(r.toolCallId, r);
    }
    const content: ToolResultPart[] = calls.map(
      (c) =>
        results.get(c.toolCallId) ?? {
          type: "tool-result",
          toolCallId: c.toolCallId,
          toolName: c.toolName,
          output: { type: "error-text", value: "Not executed: the run ended before this tool call ran." },
        },
    );
    out.push({ id: `${m.id}:results`, createdAt: m.createdAt, run: m.run, role: "tool", content });
  }
  return out;
}

/** Convert to the LanguageModelV4 prompt (UI metadata and reasoning dropped). */
export function toModelPrompt(system: string, messages: readonly AgentMessage[]): LanguageModelV4Prompt {
  const prompt: LanguageModelV4Prompt = [];
  if (system) prompt.push({ role: "system", content: system });
  for (const m of messages) {
    let msg: LanguageModelV4Message;
    if (m.role === "user") {
      // Images first (what providers recommend); an empty text part is dropped (providers refuse one).
      const text = m.content.filter((p) => !(m.images?.length && p.text === "")).map((p) => ({ type: "text" as const, text: p.text }));
      msg = { role: "user", content: [...imageParts(m.images ?? []), ...text] };
      if (m.context?.length) msg.content.push({ type: "text", text: contextBlock(m.context) });
    } else if (m.role === "assistant") {
      const content: Extract<LanguageModelV4Message, { role: "assistant" }>["content"] = [];
      for (const p of m.content) {
        if (p.type === "text") {
          if (p.text !== "") content.push({ type: "text", text: p.text });
        } else if (p.type === "tool-call") {
          content.push({ type: "tool-call", toolCallId: p.toolCallId, toolName: p.toolName, input: p.input });
        }
      }
      if (content.length === 0) continue;
      msg = { role: "assistant", content };
    } else {
      msg = {
        role: "tool",
        content: m.content.map((p) => ({ type: "tool-result", toolCallId: p.toolCallId, toolName: p.toolName, output: { ...p.output } })),
      };
    }
    prompt.push(msg);
  }
  return prompt;
}

/**
 * Characters of a request as the model counts them, for estimates: an image counts as what it
 * costs in tokens (IMAGE_TOKEN_ESTIMATE), not as the length of its base64.
 */
export function promptChars(prompt: LanguageModelV4Prompt): number {
  let images = 0;
  const json = JSON.stringify(prompt, (key, value: unknown) => {
    if (value && typeof value === "object" && (value as { type?: unknown }).type === "file") {
      images++;
      return undefined;
    }
    return value;
  });
  return json.length + images * IMAGE_TOKEN_ESTIMATE * 4;
}

/** Rough token estimate (4 characters per token) of messages as the model would see them. */
export function estimateTokens(messages: readonly AgentMessage[], system = ""): number {
  let chars = system.length;
  for (const m of messages) {
    chars += 8;
    if (m.role === "tool") {
      for (const p of m.content) chars += p.output.value.length + 16;
      continue;
    }
    if (m.role === "user" && m.context?.length) chars += contextBlock(m.context).length;
    if (m.role === "user" && m.images?.length) chars += m.images.length * IMAGE_TOKEN_ESTIMATE * 4;
    for (const p of m.content) {
      if (p.type === "text" || p.type === "reasoning") chars += p.text.length;
      else chars += JSON.stringify(p.input ?? null).length + p.toolName.length + 16;
    }
  }
  return Math.ceil(chars / 4);
}
