import { APICallError } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import { classifyError, DEFAULT_RETRY, retryAfterMs, retryDelay } from "../../lib/agent/errors";
import { AgentError } from "../../lib/agent/events";
import { harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

describe("retries and provider errors", () => {
  it("retries a 429 and succeeds, honouring Retry-After", async () => {
    const t = h([{ error: { status: 429, headers: { "retry-after": "0.02" } } }, { text: "finally" }]);
    const started = performance.now();
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(r.summary).toBe("finally");
    const retry = t.of("retry");
    expect(retry).toHaveLength(1);
    expect(retry[0]).toMatchObject({ attempt: 2, delayMs: 20, code: "rate-limit" });
    expect(performance.now() - started).toBeGreaterThanOrEqual(19);
    expect(t.of("model-request").map((e) => e.attempt)).toEqual([1, 2]);
  });

  it("backs off exponentially on 5xx and network errors, then gives up clearly", async () => {
    const t = h([{ error: { status: 503 } }, { error: {} }, { error: { status: 500 } }, { error: { status: 502 } }, { text: "never" }], {
      session: { retry: { maxRetries: 3, initialDelayMs: 2, factor: 3, maxDelayMs: 100 } },
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("failed");
    expect(t.of("retry").map((e) => e.delayMs)).toEqual([2, 6, 18]);
    expect(r.reason).toMatch(/server error \(HTTP 502.*gave up after 4 attempts/);
    expect(t.of("error")[0]).toMatchObject({ code: "server", fatal: true });
  });

  it("a bad key fails at once with a clear message", async () => {
    const t = h([{ error: { status: 401, message: "invalid x-api-key" } }]);
    const r = await t.session.run("go");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("rejected the API key (HTTP 401");
    expect(r.reason).toContain("Settings");
    expect(t.of("retry")).toHaveLength(0);
    expect(t.of("error")[0]!.code).toBe("auth");
  });

  it("an unknown model fails at once with a clear message", async () => {
    const t = h([{ error: { status: 404, message: "model: claude-nope" } }], { modelId: "claude-nope" });
    const r = await t.session.run("go");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain('does not know the model "claude-nope"');
    expect(t.of("error")[0]!.code).toBe("model-not-found");
  });

  it("an HTML answer is a clear bad-response error", async () => {
    const t = h([{ error: { status: 502, body: "<!DOCTYPE html><html><body>Bad gateway</body></html>" } }], { session: { retry: { maxRetries: 0 } } });
    const r = await t.session.run("go");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("HTML page");
    expect(t.of("error")[0]!.code).toBe("bad-response");
  });

  it("malformed output mid-stream fails the run clearly and keeps the workspace as the completed calls left it", async () => {
    const t = h(
      [
        { toolCalls: [{ name: "editor", args: { command: "create", path: "ok.txt", file_text: "ok\n" } }] },
        { text: "partial", streamError: "Invalid JSON in chunk: {garbage" },
      ],
      { approveAll: true },
    );
    const r = await t.session.run("go");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("Invalid JSON in chunk");
    expect(t.ws.read("ok.txt")).toBe("ok\n");
    // The partial text is kept, marked interrupted.
    const last = t.session.state.messages[t.session.state.messages.length - 1]!;
    expect(last.role === "assistant" && last.interrupted).toBe(true);
  });

  it("a connection dropped mid-stream is not retried (text already shown) and says so", async () => {
    const t = h([{ text: "Here is a long answer", dropAfter: 4 }, { text: "never" }]);
    const r = await t.session.run("go");
    expect(r.status).toBe("failed");
    expect(r.reason).toMatch(/dropped.*partial answer was kept/);
    expect(t.model.calls).toHaveLength(1);
  });

  it("a dropped connection before any output is retried", async () => {
    const t = h([{ text: "x", dropAfter: 1 }, { text: "second try" }]);
    const r = await t.session.run("go");
    expect(r.status).toBe("completed");
    expect(r.summary).toBe("second try");
    expect(t.of("retry")).toHaveLength(1);
  });

  it("a model that cannot be created fails the run with the reason", async () => {
    const t = h([], {
      session: {
        model: () => {
          throw new Error("No API key for Anthropic");
        },
      },
    });
    const r = await t.session.run("go");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("No API key for Anthropic");
  });

  it("classifies errors", () => {
    const ctx = { provider: "Ollama (local)", modelId: "llama", baseURL: "http://localhost:11434/v1" };
    const cors = classifyError(new TypeError("Failed to fetch"), ctx);
    expect(cors.code).toBe("cors");
    expect(cors.message).toContain("OLLAMA_ORIGINS");
    const lm = classifyError(new TypeError("Failed to fetch"), { ...ctx, baseURL: "http://127.0.0.1:1234/v1" });
    expect(lm.message).toContain("LM Studio");
    const remote = classifyError(new TypeError("Failed to fetch"), { provider: "OpenAI", modelId: "gpt", baseURL: "https://api.openai.com/v1" });
    expect(remote.code).toBe("network");
    expect(remote.retryable).toBe(true);
    const gate = classifyError(
      new APICallError({ message: "x", url: "u", requestBodyValues: {}, statusCode: 401, responseBody: JSON.stringify({ error: { message: "CORS requests must set 'anthropic-dangerous-direct-browser-access' header" } }) }),
      ctx,
    );
    expect(gate.message).toContain("refused the browser request");
    expect(classifyError(new AgentError("budget", "b"), ctx).code).toBe("budget");
    const ctxLen = classifyError(
      new APICallError({ message: "x", url: "u", requestBodyValues: {}, statusCode: 400, responseBody: JSON.stringify({ error: { message: "prompt is too long: 250000 tokens" } }) }),
      ctx,
    );
    expect(ctxLen.code).toBe("context-length");
    const cut = classifyError(new APICallError({ message: "Failed to process successful response", url: "u", requestBodyValues: {}, statusCode: 200, cause: new TypeError("terminated") }), ctx);
    expect(cut.code).toBe("network");
  });

  it("parses Retry-After forms and caps the wait", () => {
    expect(retryAfterMs({ "Retry-After": "3" })).toBe(3000);
    expect(retryAfterMs({ "retry-after-ms": "150" })).toBe(150);
    expect(retryAfterMs({ "retry-after": new Date(Date.now() + 5000).toUTCString() })).toBeGreaterThan(3000);
    expect(retryAfterMs({})).toBeUndefined();
    const e = new AgentError("rate-limit", "x", { retryable: true, retryAfterMs: 120_000 });
    expect(retryDelay(e, 1, DEFAULT_RETRY)).toBeUndefined(); // longer than maxRetryAfterMs: fail instead of hanging
    expect(retryDelay(new AgentError("rate-limit", "x", { retryable: true }), 2, DEFAULT_RETRY)).toBe(2000);
    expect(retryDelay(new AgentError("auth", "x"), 1, DEFAULT_RETRY)).toBeUndefined();
  });

  it("scrubs secrets from error messages", async () => {
    const t = h([{ error: { status: 400, message: "bad request for key sk-secret-123456" } }], { session: { redact: (s) => s.split("sk-secret-123456").join("[redacted]") } });
    const r = await t.session.run("go");
    expect(r.reason).toContain("[redacted]");
    expect(JSON.stringify(t.events)).not.toContain("sk-secret-123456");
  });
});
