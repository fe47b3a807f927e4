/**
 * The summary of a compacted stretch of conversation, written by the model: the folded messages
 * go to it as one plain-text transcript (so no tool call/result pairing can make the request
 * invalid, whatever the provider), with the previous summary first when the boundary moves on,
 * and it answers with a summary the next requests carry instead of those messages. Anything
 * that goes wrong (no model, an error, a timeout, an empty answer) returns undefined and the
 * caller keeps the mechanical summary: compaction never fails a run.
 */
import type { LanguageModelV4, LanguageModelV4Usage } from "@ai-sdk/provider";
import { textOf, toolCallsOf, type AgentMessage } from "./messages";
import { streamModelStep } from "./model-stream";

/** Longest transcript sent for summarising (characters); older parts are cut first. */
export const SUMMARY_INPUT_CHARS = 120_000;
/** Longest piece of one tool call's arguments or result in that transcript. */
const PIECE_CHARS = 2_000;
export const SUMMARY_MAX_OUTPUT_TOKENS = 2_000;
export const SUMMARY_TIMEOUT_MS = 60_000;

export const SUMMARY_SYSTEM = [
  "You write the working memory of a coding agent whose earlier conversation is being compacted.",
  "The agent will continue from your summary and the messages after it, without the messages you summarise.",
  "Write plain Markdown, at most about 600 words, with these sections:",
  "## Goal — what the user asked for, in their words where it matters.",
  "## Done so far — what was changed (files, functions, commands run) and what was learned.",
  "## Decisions and constraints — choices made, the user's preferences and corrections.",
  "## Open — what is unfinished, failing or still to verify, and the next step.",
  "Keep exact file paths, identifiers, commands and error messages. Do not invent anything; leave out pleasantries.",
].join("\n");

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}… [${s.length - n} more characters]` : s;
}

function stringify(v: unknown): string {
  if (typeof v === "string") return v;
  try {
    return JSON.stringify(v);
  } catch {
    return String(v);
  }
}

/** The messages as a transcript the model can read, newest kept when it is too long. */
export function transcriptForSummary(middle: readonly AgentMessage[], maxChars = SUMMARY_INPUT_CHARS): string {
  const blocks: string[] = [];
  for (const m of middle) {
    if (m.role === "user") {
      const imgs = m.images?.length ? `\n[${m.images.length} image${m.images.length === 1 ? "" : "s"} attached]` : "";
      blocks.push(`${m.kind === "summary" ? "Earlier summary" : "User"}:\n${textOf(m)}${imgs}`);
    } else if (m.role === "assistant") {
      const parts = [textOf(m), ...toolCallsOf(m).map((c) => `[tool call ${c.toolName} ${clip(stringify(c.input), PIECE_CHARS)}]`)].filter(Boolean);
      if (parts.length) blocks.push(`Assistant:\n${parts.join("\n")}`);
    } else {
      for (const r of m.content) {
        const out = r.output as { type?: string; value?: unknown } | undefined;
        blocks.push(`[tool result ${r.toolName}${r.ui?.status && r.ui.status !== "ok" ? ` (${r.ui.status})` : ""}]\n${clip(stringify(out?.value ?? out), PIECE_CHARS)}`);
      }
    }
  }
  let text = blocks.join("\n\n");
  if (text.length > maxChars) text = `[… the oldest part is left out …]\n${text.slice(text.length - maxChars)}`;
  return text;
}

export type SummaryAnswer = { text: string; usage?: LanguageModelV4Usage };

/** Ask `model` for the summary of `middle` (which may start with the previous summary). Throws on failure. */
export async function requestSummary(model: LanguageModelV4, middle: readonly AgentMessage[], opts: { signal?: AbortSignal; timeoutMs?: number } = {}): Promise<SummaryAnswer> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), opts.timeoutMs ?? SUMMARY_TIMEOUT_MS);
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout.signal]) : timeout.signal;
  try {
    const step = await streamModelStep(
      model,
      {
        prompt: [
          { role: "system", content: SUMMARY_SYSTEM },
          { role: "user", content: [{ type: "text", text: `Summarise this part of the conversation:\n\n${transcriptForSummary(middle)}` }] },
        ],
        maxOutputTokens: SUMMARY_MAX_OUTPUT_TOKENS,
      },
      signal,
    );
    const text = step.text.trim();
    if (!text) throw new Error("the model answered with no text");
    return { text, usage: step.usage };
  } catch (err) {
    if (timeout.signal.aborted && !opts.signal?.aborted) throw new Error(`no summary within ${Math.round((opts.timeoutMs ?? SUMMARY_TIMEOUT_MS) / 1000)} s`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
