/**
 * The e2e mock model server, driven by the real @ai-sdk/anthropic, @ai-sdk/openai and
 * @ai-sdk/openai-compatible providers (through lib/providers' createModel), and a whole agent
 * run over real HTTP/SSE in both formats.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startMockModelServer, type MockModelServer } from "../../e2e/helpers/mock-model-server";
import { AgentSession } from "../../lib/agent/session";
import { streamModelStep } from "../../lib/agent/model-stream";
import { createModel, listModels, type ProviderWithKey } from "../../lib/providers";
import { cleanupList, deps, tempWs } from "../agent/helpers";

let server: MockModelServer;
beforeAll(async () => {
  server = await startMockModelServer();
});
afterAll(async () => {
  await server.close();
});
const cleanups = cleanupList();
afterEach(() => {
  server.reset();
  cleanups.run();
});

const providers = (): Record<"anthropic" | "openai" | "compatible", ProviderWithKey> => ({
  anthropic: { id: "mock-anthropic", kind: "anthropic", label: "Mock Anthropic", baseURL: `${server.url}/v1`, apiKey: "sk-ant-test-key-123" },
  openai: { id: "mock-openai", kind: "openai", label: "Mock OpenAI", baseURL: `${server.url}/v1`, apiKey: "sk-openai-test-key-123" },
  compatible: { id: "mock-compatible", kind: "openai-compatible", label: "Mock compatible", baseURL: `${server.url}/v1`, needsKey: false },
});

const model = { anthropic: "claude-sonnet-4-5", openai: "gpt-4o-mini", compatible: "local-model" } as const;

function workspace(files: Record<string, string> = {}) {
  const ws = tempWs(files);
  cleanups.add(ws.cleanup);
  return ws;
}

describe.each(["anthropic", "openai", "compatible"] as const)("mock server via the real %s provider", (kind) => {
  it("streams text and tool calls that the agent executes", async () => {
    const ws = workspace({ "src/greet.ts": "export const greet = (n: string) => `Hello, ${n}!`;\n" });
    server.setScript([
      { text: "Let me read it.", toolCalls: [{ name: "read_files", args: { files: [{ path: "src/greet.ts" }] } }] },
      { chunks: ["It greets ", "by name."] },
    ]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w" });
    const deltas: string[] = [];
    session.subscribe((e) => {
      if (e.type === "text-delta") deltas.push(e.delta);
    });
    const r = await session.run("What does greet do?");
    expect(r.status, r.reason).toBe("completed");
    expect(r.summary).toBe("It greets by name.");
    expect(deltas.join("")).toBe("Let me read it.It greets by name.");
    expect(r.usage.inputTokens).toBeGreaterThan(0);
    expect(r.usage.outputTokens).toBeGreaterThan(0);

    const posts = server.requests.filter((q) => q.method === "POST");
    expect(posts).toHaveLength(2);
    expect(posts[0]!.api).toBe(kind === "anthropic" ? "anthropic" : "openai");
    expect(posts[0]!.body.model).toBe(model[kind]);
    expect(posts[0]!.body.stream).toBe(true);
    // The second request carries the tool result.
    expect(JSON.stringify(posts[1]!.body)).toContain("Hello, ${n}!");
    if (kind === "anthropic") {
      expect(posts[0]!.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
      expect(posts[0]!.headers["x-api-key"]).toBe("sk-ant-test-key-123");
      expect(posts[0]!.body.tools.map((t: { name: string }) => t.name)).toContain("editor");
    } else {
      expect(posts[0]!.body.tools.map((t: { function: { name: string } }) => t.function.name)).toContain("editor");
    }
    if (kind === "openai") expect(posts[0]!.headers.authorization).toBe("Bearer sk-openai-test-key-123");
    if (kind === "compatible") expect(posts[0]!.headers.authorization).toBeUndefined();
  });

  it("429 then OK is retried; 401 is a clear auth error", async () => {
    const ws = workspace();
    server.setScript([{ error: { status: 429, headers: { "retry-after": "0" } } }, { text: "after the retry" }, { error: { status: 401 } }]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w", retry: { initialDelayMs: 5 } });
    const retries: number[] = [];
    session.subscribe((e) => {
      if (e.type === "retry") retries.push(e.delayMs);
    });
    const ok = await session.run("hi");
    expect(ok.status, ok.reason).toBe("completed");
    expect(ok.summary).toBe("after the retry");
    expect(retries).toEqual([0]);
    const bad = await session.run("again");
    expect(bad.status).toBe("failed");
    expect(bad.reason).toContain("HTTP 401");
    expect(bad.reason).toContain("API key");
    expect(bad.reason).not.toContain("test-key-123");
  });

  it("an error event inside a 200 stream, before any content, is retried with backoff", async () => {
    const ws = workspace();
    server.setScript([{ streamError: "Overloaded" }, { streamError: "Overloaded" }, { text: "after two retries" }]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w", retry: { initialDelayMs: 5, factor: 2 } });
    const retries: { delayMs: number; code: string; message: string }[] = [];
    session.subscribe((e) => {
      if (e.type === "retry") retries.push({ delayMs: e.delayMs, code: e.code, message: e.message });
    });
    const r = await session.run("hi");
    expect(r.status, r.reason).toBe("completed");
    expect(r.summary).toBe("after two retries");
    expect(retries.map((x) => x.delayMs)).toEqual([5, 10]);
    expect(retries[0]!.code).toBe(kind === "anthropic" ? "server" : "server");
    expect(retries[0]!.message).toContain("Overloaded");
    expect(server.requests.filter((q) => q.method === "POST")).toHaveLength(3);
  });

  it("a rate-limit error event in the stream is retried; a quota error is not", async () => {
    const ws = workspace();
    const rate = kind === "anthropic" ? "rate_limit_error" : "rate_limit_exceeded";
    server.setScript([{ streamError: "slow down", streamErrorType: rate }, { text: "ok now" }, { streamError: "You exceeded your current quota", streamErrorType: "insufficient_quota" }]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w", retry: { initialDelayMs: 5 } });
    const ok = await session.run("hi");
    expect(ok.status, ok.reason).toBe("completed");
    const bad = await session.run("again");
    expect(bad.status).toBe("failed");
    expect(bad.reason).toContain("quota");
    expect(bad.reason).not.toContain("gave up");
    expect(server.requests.filter((q) => q.method === "POST")).toHaveLength(3);
  });

  it("an error event after content is not retried: the partial answer stays, the error is kept in the session", async () => {
    const ws = workspace();
    server.setScript([{ text: "half an answer", streamError: "Overloaded" }, { text: "never sent" }]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w", retry: { initialDelayMs: 5 } });
    const r = await session.run("hi");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("Overloaded");
    expect(server.requests.filter((q) => q.method === "POST")).toHaveLength(1);
    // After a reload (the persisted form), the partial text and the failure are both there.
    const again = AgentSession.fromJSON(JSON.parse(JSON.stringify(session.toJSON())), { deps: deps(ws), model: handle });
    expect(again.state.messages.map((m) => m.role)).toEqual(["user", "assistant"]);
    expect(again.state.runs.at(-1)).toMatchObject({ status: "failed", reason: r.reason });
  });

  it("an HTML body is a clear error, not a parser crash", async () => {
    const ws = workspace();
    server.setScript([{ raw: { status: 200, body: "<!doctype html><html><body>Welcome to my homepage</body></html>" } }]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w", retry: { maxRetries: 0 } });
    const r = await session.run("hi");
    expect(r.status).toBe("failed");
    expect(r.reason).toContain("HTML page");
  });

  it("a malformed chunk ends the run with a clear message", async () => {
    const ws = workspace();
    server.setScript([{ text: "some text that streams", malformed: true }]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w", retry: { maxRetries: 0 } });
    const r = await session.run("hi");
    expect(r.status).toBe("failed");
    expect(r.reason).toMatch(/malformed|JSON|parse|could not be read/i);
  });

  it("slow mode: stop aborts the HTTP stream", async () => {
    const ws = workspace();
    server.setScript([{ text: "a slow answer that takes a while to arrive, chunk by chunk by chunk", delayMs: 40 }]);
    const handle = await createModel(providers()[kind], model[kind]);
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w" });
    let deltas = 0;
    session.subscribe((e) => {
      if (e.type === "text-delta" && ++deltas === 2) session.stop();
    });
    const started = Date.now();
    const r = await session.run("hi");
    expect(r.status).toBe("aborted");
    expect(Date.now() - started).toBeLessThan(1500);
    expect(deltas).toBeLessThan(5);
  });
});

describe("mock server details", () => {
  it("answers CORS preflights and lists models", async () => {
    const pre = await fetch(`${server.url}/v1/messages`, {
      method: "OPTIONS",
      headers: { origin: "http://127.0.0.1:3000", "access-control-request-method": "POST", "access-control-request-headers": "x-api-key,anthropic-version,content-type" },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get("access-control-allow-origin")).toBe("http://127.0.0.1:3000");
    expect(pre.headers.get("access-control-allow-headers")).toBe("x-api-key,anthropic-version,content-type");
    server.setModels(["m1", "m2"]);
    expect(await listModels(providers().compatible)).toEqual(["m1", "m2"]);
    expect(await listModels(providers().anthropic)).toEqual(["m1", "m2"]);
    const get = server.requests.find((r) => r.api === "models" && r.headers["x-api-key"]);
    expect(get!.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
  });

  it("emulates Anthropic's browser gate; our provider passes it", async () => {
    server.setRequireBrowserHeader(true);
    server.setScript([{ text: "passed" }]);
    const handle = await createModel(providers().anthropic, "claude-sonnet-4-5", {
      fetch: (input, init) => fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: "http://127.0.0.1:3000" } }),
    });
    const step = await streamModelStep(handle.model, { prompt: [{ role: "user", content: [{ type: "text", text: "hi" }] }] }, new AbortController().signal);
    expect(step.text).toBe("passed");
    const gated = await fetch(`${server.url}/v1/messages`, { method: "POST", headers: { origin: "http://x", "content-type": "application/json" }, body: "{}" });
    expect(gated.status).toBe(401);
    expect(gated.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("logs requests, exhausts gracefully, waits for requests", async () => {
    server.setScript([{ text: "one" }]);
    const handle = await createModel(providers().openai, "gpt-4o-mini");
    const signal = new AbortController().signal;
    const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];
    const wait = server.waitForRequests(2);
    expect((await streamModelStep(handle.model, { prompt }, signal)).text).toBe("one");
    expect((await streamModelStep(handle.model, { prompt }, signal)).text).toContain("no more turns");
    await wait;
    expect(server.position).toBe(1);
    expect(server.requests.map((r) => r.turn)).toEqual([0, -1]);
    expect(server.requests[0]!.body.messages[0]).toMatchObject({ role: "user" });
  });

  it("a dropped connection mid-stream is reported as such", async () => {
    server.setScript([{ text: "this will be cut off somewhere in the middle", dropAfter: 3 }]);
    const ws = workspace();
    const handle = await createModel(providers().anthropic, "claude-sonnet-4-5");
    const session = new AgentSession({ deps: deps(ws), model: handle, workspaceId: "w", retry: { maxRetries: 0 } });
    const r = await session.run("hi");
    expect(r.status).toBe("failed");
    expect(r.reason, r.reason).toMatch(/dropped|terminated|connection/i);
  });
});
