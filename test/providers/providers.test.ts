import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { streamModelStep } from "../../lib/agent/model-stream";
import { priceFor } from "../../lib/agent/pricing";
import type { ModelHandle } from "../../lib/agent/model-handle";
import {
  createModel,
  DEMO_LABEL,
  DEMO_TURNS,
  createDemoModel,
  guardedFetch,
  KEYS_KEY,
  listModels,
  memoryStorage,
  ProviderSettingsStore,
  ScriptedLanguageModel,
  SETTINGS_KEY,
} from "../../lib/providers";

const prompt = [{ role: "user" as const, content: [{ type: "text" as const, text: "hi" }] }];

describe("provider settings", () => {
  it("persists providers and the model per mode; keys live apart and are redacted", async () => {
    const storage = memoryStorage();
    const store = new ProviderSettingsStore(storage);
    const s = await store.load();
    expect(s.providers.map((p) => p.id)).toEqual(["demo", "anthropic", "openai", "openrouter", "ollama", "lmstudio"]);
    expect(await store.choiceFor("act")).toEqual({ providerId: "demo", modelId: "demo-scripted" });
    await store.setKey("anthropic", "sk-ant-api03-SECRET-abcdef");
    await store.upsertProvider({ id: "custom", kind: "openai-compatible", label: "My server", baseURL: "http://10.0.0.2:8000/v1", apiKey: "sk-should-not-stay" } as never);
    await store.chooseModel("act", { providerId: "anthropic", modelId: "claude-sonnet-4-5" });
    await store.chooseModel("plan", { providerId: "custom", modelId: "qwen" });
    const dump = storage.dump();
    expect(dump[SETTINGS_KEY]).not.toContain("SECRET");
    expect(dump[SETTINGS_KEY]).not.toContain("sk-should-not-stay");
    expect(JSON.parse(dump[KEYS_KEY]!)).toEqual({ anthropic: "sk-ant-api03-SECRET-abcdef" });
    // A fresh store reads it all back.
    const again = new ProviderSettingsStore(storage);
    await again.load();
    expect(again.hasKey("anthropic")).toBe(true);
    expect((await again.provider("anthropic"))!.apiKey).toBe("sk-ant-api03-SECRET-abcdef");
    expect(await again.choiceFor("review")).toEqual({ providerId: "anthropic", modelId: "claude-sonnet-4-5" });
    expect(await again.choiceFor("plan")).toEqual({ providerId: "custom", modelId: "qwen" });
    expect(again.redact("401: key sk-ant-api03-SECRET-abcdef is invalid")).toBe("401: key [redacted] is invalid");
    await again.setKey("anthropic", undefined);
    expect(storage.dump()[KEYS_KEY]).toBeUndefined();
  });

  it("the model per mode comes from the settings; the demo by default", async () => {
    const store = new ProviderSettingsStore(memoryStorage());
    await store.load();
    const source = store.modelSource() as (m: "act") => Promise<ModelHandle>;
    const handle = await source("act");
    expect(handle.model.modelId).toBe("demo-scripted");
    expect(handle.providerLabel).toBe(DEMO_LABEL);
    await store.chooseModel("act", { providerId: "anthropic", modelId: "claude-sonnet-4-5" });
    await expect(store.modelFor("act")).rejects.toThrow(/No API key for Anthropic/);
    expect(priceFor(await store.prices(), "claude-sonnet-4-5")!.input).toBe(3);
    await store.setPrices({ "my-model": { input: 1, output: 2 } });
    expect((await store.prices())["my-model"]).toEqual({ input: 1, output: 2 });
  });

  it("a model named by id (a team role's) comes from a provider in use that offers it, the mode's own first", async () => {
    const store = new ProviderSettingsStore(memoryStorage());
    await store.load();
    await store.upsertProvider({ id: "local", kind: "openai-compatible", label: "Local", baseURL: "http://127.0.0.1:9/v1", needsKey: false, models: ["qwen-small", "qwen-big"] });
    await store.upsertProvider({ id: "other", kind: "openai-compatible", label: "Other", baseURL: "http://127.0.0.1:8/v1", needsKey: false, models: ["qwen-big"] });
    await store.chooseModel("act", { providerId: "local", modelId: "qwen-small" });
    // "other" is neither chosen nor keyed: not in use, so not offered.
    expect((await store.availableModels()).filter((m) => m.providerId !== "demo")).toEqual([
      { providerId: "local", modelId: "qwen-small" },
      { providerId: "local", modelId: "qwen-big" },
    ]);
    const big = await (store.modelSourceFor("qwen-big") as (m: "act") => Promise<ModelHandle>)("act");
    expect(big.model.modelId).toBe("qwen-big");
    expect(big.model.provider).toContain("local");
    // No name: the mode's model, as modelSource gives.
    expect((await (store.modelSourceFor(undefined) as (m: "act") => Promise<ModelHandle>)("act")).model.modelId).toBe("qwen-small");
    // A model no provider in use offers is an error naming what there is (no silent substitute).
    await expect(store.modelById("gpt-nowhere", "act")).rejects.toThrow(/No provider in use offers the model "gpt-nowhere" \(available: .*qwen-big/);
    await store.chooseModel("plan", { providerId: "other", modelId: "qwen-big" });
    // The plan mode's provider offers it too: Plan-mode children take it from there.
    expect((await store.modelById("qwen-big", "plan")).model.provider).toContain("other");
  });

  it("tolerates corrupt storage", async () => {
    const store = new ProviderSettingsStore(memoryStorage({ [SETTINGS_KEY]: "{oops", [KEYS_KEY]: "nope" }));
    const s = await store.load();
    expect(s.providers.length).toBeGreaterThan(0);
    expect(store.secrets()).toEqual([]);
  });
});

describe("createModel", () => {
  it("builds each provider kind; local OpenAI-compatible servers need no key", async () => {
    const a = await createModel({ id: "anthropic", kind: "anthropic", label: "Anthropic", apiKey: "k-123456" }, "claude-haiku-4-5");
    expect(a.model.provider).toContain("anthropic");
    expect(a.baseURL).toBe("https://api.anthropic.com/v1");
    const o = await createModel({ id: "openai", kind: "openai", label: "OpenAI", apiKey: "k-123456" }, "gpt-4o-mini");
    expect(o.model.provider).toContain("openai");
    const l = await createModel({ id: "ollama", kind: "openai-compatible", label: "Ollama", baseURL: "http://localhost:11434/v1/", needsKey: false }, "llama3");
    expect(l.model.modelId).toBe("llama3");
    expect(l.baseURL).toBe("http://localhost:11434/v1");
    await expect(createModel({ id: "openai", kind: "openai", label: "OpenAI", needsKey: true }, "gpt-4o")).rejects.toThrow(/No API key/);
  });

  it("sends Anthropic's browser header and never puts the key in the URL", async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const fake = async (input: RequestInfo | URL, init?: RequestInit) => {
      seen.push({ url: String(input), headers: Object.fromEntries(new Headers(init?.headers).entries()) });
      return new Response(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }), { status: 401, headers: { "content-type": "application/json" } });
    };
    const h = await createModel({ id: "anthropic", kind: "anthropic", label: "Anthropic", apiKey: "sk-ant-xyz-123456" }, "claude-haiku-4-5", { fetch: fake });
    await expect(streamModelStep(h.model, { prompt }, new AbortController().signal)).rejects.toThrow();
    expect(seen[0]!.headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
    expect(seen[0]!.url).not.toContain("sk-ant");
  });

  it("guardedFetch refuses an HTML page with a clear message", async () => {
    const f = guardedFetch(async () => new Response("<html>hi</html>", { status: 200, headers: { "content-type": "text/html" } }));
    await expect(f("http://example.test/v1/chat/completions")).rejects.toThrow(/HTML page instead of an API response/);
  });

  it("listModels explains a refused local server (CORS) and HTML answers", async () => {
    const refused = async (): Promise<Response> => {
      throw new TypeError("Failed to fetch");
    };
    await expect(listModels({ id: "ollama", kind: "openai-compatible", label: "Ollama", baseURL: "http://localhost:11434/v1" }, { fetch: refused })).rejects.toThrow(/OLLAMA_ORIGINS/);
    await expect(listModels({ id: "lm", kind: "openai-compatible", label: "LM Studio", baseURL: "http://localhost:1234/v1" }, { fetch: refused })).rejects.toThrow(/LM Studio: enable "CORS"/);
    const html = async () => new Response("<!doctype html>", { status: 200 });
    await expect(listModels({ id: "x", kind: "openai-compatible", label: "X", baseURL: "http://x.test/v1" }, { fetch: html })).rejects.toThrow(/HTML page/);
    const ok = async () => new Response(JSON.stringify({ data: [{ id: "b" }, { id: "a" }, { id: "a" }] }), { status: 200 });
    expect(await listModels({ id: "x", kind: "openai", label: "X", apiKey: "k" }, { fetch: ok })).toEqual(["a", "b"]);
    expect(await listModels({ id: "demo", kind: "demo", label: "Demo" })).toEqual(["demo-scripted"]);
  });
});

describe("scripted model", () => {
  it("replays text, reasoning and tool calls as LanguageModelV4 stream parts", async () => {
    const m = new ScriptedLanguageModel({ script: [{ text: "hello world", reasoning: "thinking", toolCalls: [{ name: "t", args: { a: 1 }, id: "x1" }], usage: { inputTokens: 7, outputTokens: 3 } }] });
    const step = await streamModelStep(m, { prompt }, new AbortController().signal);
    expect(step.text).toBe("hello world");
    expect(step.reasoning).toBe("thinking");
    expect(step.toolCalls).toEqual([{ toolCallId: "x1", toolName: "t", input: '{"a":1}' }]);
    expect(step.finishReason).toBe("tool-calls");
    expect(step.usage!.inputTokens.total).toBe(7);
    expect(m.calls).toHaveLength(1);
    expect(m.specificationVersion).toBe("v4");
  });

  it("honours abort while slow", async () => {
    const m = new ScriptedLanguageModel({ script: [{ text: "a b c d e f g h i j k l m n o p", delayMs: 30 }], chunkSize: 2 });
    const ac = new AbortController();
    let n = 0;
    const p = streamModelStep(m, { prompt }, ac.signal, { onText: () => void (++n === 2 && ac.abort()) });
    await expect(p).rejects.toMatchObject({ name: "AbortError" });
    expect(n).toBe(2);
  });

  it("the demo script reads, edits, runs a command and completes, labelled as scripted", () => {
    expect(DEMO_TURNS.map((t) => t.toolCalls![0]!.name)).toEqual(["read_files", "editor", "run_commands", "attempt_completion"]);
    for (const t of DEMO_TURNS) expect(t.text).toContain("Demo");
  });

  it("the demo answers a request without tools (a compaction summary) with plain text, not its next step", async () => {
    const demo = createDemoModel();
    const tools = [{ type: "function" as const, name: "read_files", inputSchema: { type: "object" as const } }];
    const turn = await streamModelStep(demo, { prompt, tools }, new AbortController().signal);
    expect(turn.toolCalls.map((c) => c.toolName)).toEqual(["read_files"]);
    const summary = await streamModelStep(demo, { prompt }, new AbortController().signal);
    expect(summary.toolCalls).toEqual([]);
    expect(summary.text).toMatch(/Demo[^]*real model writes a real summary/);
  });
});

describe("architecture", () => {
  const root = path.resolve(__dirname, "../..");
  const files = ["lib/agent", "lib/tools", "lib/providers", "lib/sessions"].flatMap((d) =>
    fs
      .readdirSync(path.join(root, d))
      .filter((f) => f.endsWith(".ts"))
      .map((f) => path.join(d, f)),
  );

  it("the agent core is framework-free, uses relative imports, loads provider packages lazily", () => {
    expect(files.length).toBeGreaterThan(25);
    for (const f of files) {
      const src = fs.readFileSync(path.join(root, f), "utf8");
      const imports = [...src.matchAll(/^\s*(?:import|export)[^;]*?from\s+"([^"]+)"/gm)].map((m) => m[1]!);
      for (const spec of imports) {
        expect(spec, `${f} imports ${spec}`).not.toMatch(/^(react|next|@\/|\.\.\/\.\.\/components|\.\.\/\.\.\/app)/);
        expect(spec, `${f} must lazy-load ${spec}`).not.toMatch(/^@ai-sdk\/(anthropic|openai|openai-compatible)$|^ai$|^just-bash$/);
      }
      // No browser global touched at import time (they are passed in).
      const topLevel = src
        .split("\n")
        .filter((l) => /^(const|let|var|export const)\b/.test(l))
        .join("\n");
      expect(topLevel, f).not.toMatch(/\b(window|document|localStorage|indexedDB|navigator)\b/);
    }
  });
});
