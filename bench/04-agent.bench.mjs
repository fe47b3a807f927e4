/**
 * Agent figures (Node, over node:fs):
 *
 *  1. Agent overhead per tool call, excluding model time: a scripted model drives 200 tool
 *     calls in one run; overhead = time from the end of one model stream to the start of the
 *     next request (message builders, hooks, validation, policy, the tool, events). Measured
 *     with a no-op tool (pure loop cost), with read_files on a small file, and with one hook at
 *     each of the seven points. Target ≤ 5 ms.
 *  2. Time from run start to the first request leaving for the model, with the real checkpoint
 *     engine (lib/checkpoints) taking the run's checkpoint on a 1,000-file workspace with one
 *     changed file. Measured to the scripted model's doStream and, over HTTP, to the moment the
 *     real @ai-sdk/anthropic provider's fetch leaves for the mock model server. Target ≤ 50 ms.
 *
 * The TypeScript sources are loaded with tsx's scoped loader (no build step, nothing written).
 * Standalone: `node bench/04-agent.bench.mjs`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, "..");
const load = (rel) => tsImport(path.join(root, rel), import.meta.url);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const r2 = (x) => Math.round(x * 100) / 100;

function git(dir, args) {
  return execFileSync("git", ["-c", "init.defaultBranch=main", "-c", "user.name=Bench", "-c", "user.email=bench@example.com", ...args], {
    cwd: dir,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: os.tmpdir() },
  }).toString();
}

/** A scripted model that records when each request starts and when its stream ends. */
function timedModel(ScriptedLanguageModel, turns) {
  const inner = new ScriptedLanguageModel({ script: turns, modelId: "demo-scripted", chunkSize: 64 });
  const marks = { calls: [], ends: [] };
  return {
    marks,
    model: {
      specificationVersion: "v4",
      provider: "bench",
      modelId: "demo-scripted",
      supportedUrls: {},
      doGenerate: () => inner.doGenerate(),
      async doStream(options) {
        marks.calls.push(performance.now());
        const r = await inner.doStream(options);
        const stream = r.stream.pipeThrough(
          new TransformStream({
            flush() {
              marks.ends.push(performance.now());
            },
          }),
        );
        return { ...r, stream };
      },
    },
  };
}

async function overheadPerToolCall({ agent, tools, providers, zod, ws, calls, variant }) {
  const { AgentSession } = agent;
  const noop = tools.defineTool({
    name: "noop",
    description: "Does nothing (bench).",
    inputSchema: zod.z.object({ i: zod.z.number() }),
    effects: [],
    approval: "none",
    async execute(input) {
      return { output: `ok ${input.i}` };
    },
  });
  const turns = [];
  for (let i = 0; i < calls; i++) {
    turns.push(
      variant === "read_files"
        ? { text: `step ${i}`, toolCalls: [{ name: "read_files", args: { files: [{ path: "src/small.ts", start_line: 1 + (i % 5) }] } }] }
        : { text: `step ${i}`, toolCalls: [{ name: "noop", args: { i } }] },
    );
  }
  turns.push({ text: "done" });
  const { model, marks } = timedModel(providers.ScriptedLanguageModel, turns);
  const checkpoints = {
    create: async (o) => ({ ref: `refs/tabula/checkpoints/${o.sessionId}/${o.run}`, oid: "0".repeat(40), createdAt: Date.now() }),
    restore: async () => ({ txid: "t", changed: [] }),
    undoRestore: async () => ({ txid: "t", changed: [] }),
  };
  const session = new AgentSession({
    deps: { wsfs: ws, checkpoints, shell: async () => ({ exec: async () => ({ stdout: "", stderr: "", exitCode: 0 }) }) },
    model,
    workspaceId: "bench",
    tools: [...tools.builtinTools(), noop],
    maxSteps: calls + 5,
    loopGuardThreshold: 1e9,
  });
  let events = 0;
  session.subscribe(() => events++);
  if (variant === "hooks") {
    const hooks = {};
    for (const p of agent.HOOK_POINTS) hooks[p] = () => undefined;
    session.hooks.register({ name: "bench-all-points", hooks });
  }
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const r = await session.run("bench");
  const total = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (r.status !== "completed") throw new Error(`bench run ${r.status}: ${r.reason}`);
  const gaps = [];
  for (let i = 0; i + 1 < marks.calls.length; i++) gaps.push(marks.calls[i + 1] - marks.ends[i]);
  const modelMs = marks.ends.reduce((s, e, i) => s + (e - marks.calls[i]), 0);
  return {
    toolCalls: calls,
    medianMs: r2(median(gaps)),
    p95Ms: r2(pct(gaps, 95)),
    firstTenMedianMs: r2(median(gaps.slice(0, 10))),
    lastTenMedianMs: r2(median(gaps.slice(-10))),
    meanExcludingModelMs: r2((total - modelMs) / calls),
    eventsPerToolCall: r2(events / calls),
    // CPU time of the whole run (scripted model included) per call: unlike the gaps above, it
    // barely moves when other work shares the machine, so it is the figure to compare commits by.
    cpuMsPerToolCall: r2((cpu.user + cpu.system) / 1000 / calls),
  };
}

async function firstRequestLatency({ agent, providers, checkpoints, fsmod, mock }) {
  const { AgentSession, createWorkspaceAgentDeps } = agent;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-agent-"));
  try {
    for (let d = 0; d < 20; d++) fs.mkdirSync(path.join(dir, `dir${String(d).padStart(2, "0")}`), { recursive: true });
    for (let i = 0; i < 1000; i++) {
      fs.writeFileSync(path.join(dir, `dir${String(i % 20).padStart(2, "0")}`, `file${i}.ts`), `export const value${i} = ${i};\n`.repeat(30));
    }
    fs.writeFileSync(path.join(dir, ".gitignore"), "node_modules/\n");
    git(dir, ["init", "-q"]);
    git(dir, ["add", "-A"]);
    git(dir, ["commit", "-qm", "bench"]);
    const wsfs = new fsmod.WorkspaceFs({ fs, dir, journal: new fsmod.ChangeJournal() });
    const deps = createWorkspaceAgentDeps({ wsfs, defenseInDepth: false });
    // Warm: the engine's first checkpoint hashes everything and builds its stat cache.
    const warm = performance.now();
    await checkpoints.createCheckpoint({ fs, dir, journal: wsfs.journal }, { sessionId: "warmup", run: 0 });
    const warmupMs = performance.now() - warm;

    const scriptedRuns = [];
    const checkpointMs = [];
    const checkpointEventMs = [];
    for (let i = 0; i < 7; i++) {
      fs.appendFileSync(path.join(dir, "dir03", "file3.ts"), `// change ${i}\n`); // one changed file, behind the journal's back
      let requestAt = 0;
      const model = new providers.ScriptedLanguageModel({ script: [{ text: "ok" }], modelId: "demo-scripted" });
      const orig = model.doStream.bind(model);
      model.doStream = (o) => {
        requestAt ||= performance.now();
        return orig(o);
      };
      const session = new AgentSession({ deps, model, workspaceId: "bench" });
      let cpAt = 0;
      session.subscribe((e) => {
        if (e.type === "checkpoint-created") {
          cpAt = performance.now();
          checkpointMs.push(e.ms);
        }
      });
      const t0 = performance.now();
      const r = await session.run("hello");
      await session.history.checkpointsSettled();
      if (r.status !== "completed") throw new Error(`run ${r.status}: ${r.reason}`);
      scriptedRuns.push(requestAt - t0);
      checkpointEventMs.push(cpAt - t0);
    }

    // Over HTTP: the real Anthropic provider against the mock server; the moment fetch leaves.
    const server = await mock.startMockModelServer();
    const httpRuns = [];
    try {
      for (let i = 0; i < 5; i++) {
        fs.appendFileSync(path.join(dir, "dir07", "file7.ts"), `// http change ${i}\n`);
        server.setScript([{ text: "ok" }]);
        let fetchAt = 0;
        const handle = await providers.createModel(
          { id: "mock", kind: "anthropic", label: "Mock", baseURL: `${server.url}/v1`, apiKey: "bench-key" },
          "claude-sonnet-4-5",
          { onRequest: () => (fetchAt ||= performance.now()) },
        );
        const session = new AgentSession({ deps, model: handle, workspaceId: "bench" });
        const t0 = performance.now();
        const r = await session.run("hello");
        await session.history.checkpointsSettled();
        if (r.status !== "completed") throw new Error(`http run ${r.status}: ${r.reason}`);
        httpRuns.push(fetchAt - t0);
      }
    } finally {
      await server.close();
    }
    return {
      workspaceFiles: 1000,
      changedFiles: 1,
      runStartToFirstRequestMs: r2(median(scriptedRuns.slice(2))),
      runStartToFirstRequestRunsMs: scriptedRuns.map(r2),
      runStartToFirstFetchHttpMs: r2(median(httpRuns.slice(1))),
      runStartToFirstFetchHttpRunsMs: httpRuns.map(r2),
      checkpointMsMedian: r2(median(checkpointMs.slice(2))),
      runStartToCheckpointCreatedMsMedian: r2(median(checkpointEventMs.slice(2))),
      warmupCheckpointMs: r2(warmupMs),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export async function run() {
  const [agent, tools, providers, checkpoints, fsmod, mock] = await Promise.all([
    load("lib/agent/index.ts"),
    load("lib/tools/index.ts"),
    load("lib/providers/index.ts"),
    load("lib/checkpoints/index.ts"),
    load("lib/fs/index.ts"),
    load("e2e/helpers/mock-model-server.ts"),
  ]);
  const zod = await import("zod");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-loop-"));
  fs.mkdirSync(path.join(dir, "src"));
  fs.writeFileSync(path.join(dir, "src", "small.ts"), "export const a = 1;\nexport const b = 2;\nexport const c = 3;\nexport const d = 4;\nexport const e = 5;\n");
  const ws = new fsmod.WorkspaceFs({ fs, dir, journal: new fsmod.ChangeJournal() });
  try {
    // Warm the JIT once.
    await overheadPerToolCall({ agent, tools, providers, zod, ws, calls: 30, variant: "noop" });
    const noop = await overheadPerToolCall({ agent, tools, providers, zod, ws, calls: 200, variant: "noop" });
    const readFiles = await overheadPerToolCall({ agent, tools, providers, zod, ws, calls: 200, variant: "read_files" });
    const hooks = await overheadPerToolCall({ agent, tools, providers, zod, ws, calls: 200, variant: "hooks" });
    const first = await firstRequestLatency({ agent, providers, checkpoints, fsmod, mock });
    return {
      overheadPerToolCallMs: noop.medianMs,
      overheadPerToolCallTargetMs: 5,
      overheadNoopTool: noop,
      overheadWithReadFiles: readFiles,
      overheadWithHooksAtAllSevenPoints: hooks,
      runStartToFirstRequestMs: first.runStartToFirstRequestMs,
      runStartToFirstRequestTargetMs: 50,
      firstRequest: first,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = await run();
  console.log(JSON.stringify(out, null, 2));
  process.exit(0);
}
