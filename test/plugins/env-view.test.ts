/**
 * env-blocker as a guarantee: every form of ENV_CORPUS runs as a tool call of a real agent
 * session (scripted model, createWorkspaceAgentDeps, the real shell and git, the real PluginHost
 * with the built-in plugin) over a temp git repository on a jailed node:fs. With env-blocker on,
 * neither a tool result nor anything the model was sent contains a canary of a `.env` file (in
 * plain text, base64, hex, reversed, or as its object name), `.env.example` stays readable, and
 * the secret files are byte-identical afterwards. With only the file view on (the plugin's
 * command parsing left out) the same holds: the view is the guarantee. With env-blocker off the
 * forms marked `reveals` do show a canary, so the corpus is not vacuous.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import git from "isomorphic-git";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ChangeJournal, WorkspaceFs } from "../../lib/fs";
import { createWorkspaceAgentDeps } from "../../lib/agent/workspace-deps";
import { AgentSession } from "../../lib/agent/session";
import type { AgentEvent } from "../../lib/agent/events";
import { ScriptedLanguageModel, type ScriptedTurn } from "../../lib/providers/scripted";
import { PluginHost } from "../../lib/plugins/host";
import { setupInProcess } from "../../lib/plugins/load";
import { validatePlugin } from "../../lib/plugins/manifest";
import { envBlocker, envFilesHidden } from "../../lib/plugins/builtin/env-blocker";
import { createShell } from "../../lib/shell";
import { modeSessionOptions } from "../../lib/modes";
import { jailedFs } from "../modes/helpers";
import { ENV_CORPUS, type EnvProbe } from "./env-corpus";

const SECRET_FILES: Record<string, string> = {
  ".env": "CANARY_WORK_ROOT=c4n4ry-work-root-77aa\n",
  "sub/.env.local": "CANARY_SUB=c4n4ry-sub-local-0c9d\n",
  "conf/.ENV": "CANARY_CASE=c4n4ry-case-31b7\n",
};
const COMMITTED_ROOT = "CANARY_HEAD_ROOT=c4n4ry-head-root-5e1f\n";
const STASHED_ROOT = "CANARY_STASH=c4n4ry-stash-88e0\n";
const CANARIES = ["c4n4ry-work-root-77aa", "c4n4ry-sub-local-0c9d", "c4n4ry-case-31b7", "c4n4ry-head-root-5e1f", "c4n4ry-stash-88e0"];
const PUBLIC_FILES: Record<string, string> = {
  ".env.example": "EXAMPLE_OK=example-visible-4242\n",
  "src/app.ts": "export const port = 3000;\n",
  "README.md": "# demo\n",
};
const ENV = { GIT_AUTHOR_NAME: "T", GIT_AUTHOR_EMAIL: "t@example.com", GIT_COMMITTER_NAME: "T", GIT_COMMITTER_EMAIL: "t@example.com" };

type Repo = { dir: string; oids: { ENV_OID: string; SUB_OID: string }; hiddenOids: string[] };

function write(dir: string, rel: string, data: string) {
  fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
  fs.writeFileSync(path.join(dir, rel), data);
}

/** A repo whose history, index, stash and work tree all hold .env canaries. */
async function makeRepo(): Promise<Repo> {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "tabula-envview-")));
  for (const [p, d] of Object.entries({ ...PUBLIC_FILES, ...SECRET_FILES, ".env": COMMITTED_ROOT })) write(dir, p, d);
  await git.init({ fs, dir, defaultBranch: "main" });
  await git.add({ fs, dir, filepath: "." });
  await git.commit({ fs, dir, message: "base with secrets", author: { name: "A", email: "a@example.com", timestamp: 1_700_000_000, timezoneOffset: 0 } });
  // A stash holding another version of .env, made by the user's own (full-view) shell.
  write(dir, ".env", STASHED_ROOT);
  const userShell = await createShell({ fs: jailedFs(dir).fs, dir, defenseInDepth: false });
  const stashed = await userShell.exec("git stash", { env: ENV });
  expect(stashed.exitCode, stashed.stderr).toBe(0);
  expect(fs.readFileSync(path.join(dir, ".env"), "utf8")).toBe(COMMITTED_ROOT);
  write(dir, ".env", SECRET_FILES[".env"]!); // the work tree differs from HEAD: git diff has a .env hunk
  const oid = async (s: string) => (await git.hashBlob({ object: new TextEncoder().encode(s) })).oid;
  const hiddenOids = await Promise.all([COMMITTED_ROOT, STASHED_ROOT, ...Object.values(SECRET_FILES)].map(oid));
  return { dir, oids: { ENV_OID: await oid(COMMITTED_ROOT), SUB_OID: await oid(SECRET_FILES["sub/.env.local"]!) }, hiddenOids };
}

function removeRepo(dir: string) {
  if (!path.basename(dir).startsWith("tabula-envview-") || !dir.startsWith(fs.realpathSync(os.tmpdir()) + path.sep)) throw new Error(`refusing to remove ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true });
}

/** Every form a canary could take in text: plain, reversed, hex, base64 at each alignment. */
function leakForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = [secret, [...secret].reverse().join(""), bytes.toString("hex")];
  // The common prefix alone too: `od -c` splits a value over lines (squeezing joins its letters).
  const core = "c4n4ry";
  forms.push(core, [...core].reverse().join(""), Buffer.from(core).toString("hex"));
  for (let off = 0; off < 3; off++) {
    const b64 = Buffer.concat([Buffer.alloc(off), bytes]).toString("base64");
    // Drop the characters that depend on the neighbouring bytes.
    forms.push(b64.slice(Math.ceil((off * 4) / 3) + 1, -4));
  }
  return forms;
}

function leaksIn(text: string, repo: Repo): string[] {
  const squeezed = text.replace(/\s+/g, "");
  const lower = squeezed.toLowerCase();
  const found: string[] = [];
  for (const c of CANARIES) {
    for (const f of leakForms(c)) if (squeezed.includes(f) || (/^[0-9a-f]+$/.test(f) && lower.includes(f))) found.push(`${c} as ${f}`);
  }
  for (const o of repo.hiddenOids) if (text.includes(o)) found.push(`object name ${o}`);
  return found;
}

type Mode = "on" | "view-only" | "off";

type RunOutcome = { results: Map<string, string>; outputs: Map<string, string>; modelSaw: string; eventsText: string };

function substitute(s: string, repo: Repo): string {
  return s.replace(/\{\{(ENV_OID|SUB_OID)\}\}/g, (_, k: "ENV_OID" | "SUB_OID") => repo.oids[k]);
}

/** Run `probes` as one agent run, one tool call per model request. */
async function runProbes(repo: Repo, probes: EnvProbe[], mode: Mode, defenseInDepth: boolean, agentMode: "act" | "plan" = "act"): Promise<RunOutcome> {
  const jail = jailedFs(repo.dir);
  const wsfs = new WorkspaceFs({ fs: jail.fs, dir: repo.dir, journal: new ChangeJournal() });
  const deps = createWorkspaceAgentDeps({ wsfs, defenseInDepth, shellEnv: ENV });
  const turns: ScriptedTurn[] = probes.map((p, i) => ({
    toolCalls: [
      "shell" in p
        ? { id: `probe-${i}`, name: "run_commands", args: { commands: [substitute(p.shell, repo)], ...(p.cwd ? { cwd: p.cwd } : {}) } }
        : { id: `probe-${i}`, name: p.tool, args: p.input },
    ],
  }));
  turns.push({ text: "done" });
  const model = new ScriptedLanguageModel({ script: turns, modelId: "test-model", chunkSize: 50 });
  const session = new AgentSession({
    deps: { ...deps, checkpoints: { create: async (o) => ({ ref: `refs/x/${o.run}`, oid: "0".repeat(40), createdAt: 0 }), restore: async () => ({ txid: "t", changed: [] }), undoRestore: async (txid) => ({ txid, changed: [] }) } },
    model,
    workspaceId: "w",
    approvals: { autoApprove: { read: true, edit: true, command: true } } as never,
    maxSteps: 1000,
    ...(agentMode === "plan" ? { mode: "plan" as const, ...modeSessionOptions() } : {}),
  });
  const events: AgentEvent[] = [];
  session.subscribe((e) => void events.push(e));
  const host = new PluginHost(session);
  if (mode === "on") {
    const plugin = validatePlugin(envBlocker);
    await host.add({ name: "built-in:env-blocker", source: "built-in", origin: "test", sandboxed: false, load: async () => ({ manifest: plugin.manifest, contributions: await setupInProcess(plugin, {} as never) }) });
  } else if (mode === "view-only") {
    session.extensions.hidePaths(envFilesHidden);
  }
  await session.run("probe the workspace");
  // The calls' own arguments (an object name typed in by the probe) are not something it got back.
  const inputs = probes.flatMap((p) => ("shell" in p ? [substitute(p.shell, repo), JSON.stringify(substitute(p.shell, repo)).slice(1, -1)] : [JSON.stringify(p.input).slice(1, -1)]));
  for (const p of probes) if ("shell" in p) for (const k of ["ENV_OID", "SUB_OID"] as const) if (p.shell.includes(`{{${k}}}`)) inputs.push(repo.oids[k]);
  const strip = (text: string) => inputs.reduce((t, i) => t.split(i).join("<input>"), text);
  const results = new Map<string, string>();
  const outputs = new Map<string, string>();
  for (const e of events) {
    if (e.type !== "tool-call-finished") continue;
    results.set(e.toolCallId, strip(JSON.stringify(e)));
    // A call refused before it ran (the static check) says why, naming .env files: no listing to check.
    if (!(e as { blockedByPolicy?: boolean }).blockedByPolicy) outputs.set(e.toolCallId, strip(String((e as { output?: unknown }).output ?? "")));
  }
  const modelSaw = strip(JSON.stringify(model.calls.map((c) => c.prompt)) + JSON.stringify(session.state.messages));
  if (process.env.ENV_VIEW_DUMP) {
    fs.writeFileSync(`${process.env.ENV_VIEW_DUMP}-${mode}-${defenseInDepth}.txt`, probes.map((p, i) => `### ${p.name}\n${(JSON.parse(JSON.stringify(events.find((e) => e.type === "tool-call-finished" && e.toolCallId === `probe-${i}`) ?? {})) as { output?: string }).output}`).join("\n"));
  }
  expect(jail.violations).toEqual([]);
  host.dispose();
  return { results, outputs, modelSaw, eventsText: strip(JSON.stringify(events)) };
}

const readProbes = ENV_CORPUS.filter((p) => !p.mutates);

describe("the corpus", () => {
  it("has at least 30 forms, each with a unique name", () => {
    expect(ENV_CORPUS.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ENV_CORPUS.map((p) => p.name)).size).toBe(ENV_CORPUS.length);
  });
});

for (const mode of ["on", "view-only"] as const) {
  for (const defenseInDepth of [false, true]) {
    describe(`env-blocker ${mode === "on" ? "on" : "as the file view alone"}, defenseInDepth ${defenseInDepth}`, () => {
      let repo: Repo;
      let outcome: RunOutcome;
      beforeAll(async () => {
        repo = await makeRepo();
        outcome = await runProbes(repo, ENV_CORPUS, mode, defenseInDepth);
      }, 240_000);
      afterAll(() => repo && removeRepo(repo.dir));

      it("no tool result contains a .env's bytes or object name", () => {
        const leaks: string[] = [];
        ENV_CORPUS.forEach((p, i) => {
          const r = outcome.results.get(`probe-${i}`);
          if (r === undefined) leaks.push(`${p.name}: no result`);
          else for (const l of leaksIn(r, repo)) leaks.push(`${p.name}: ${l}`);
        });
        expect(leaks).toEqual([]);
      });

      it("nothing the model was sent contains one either", () => {
        expect(leaksIn(outcome.modelSaw, repo)).toEqual([]);
        expect(leaksIn(outcome.eventsText, repo)).toEqual([]);
      });

      it("listings, status and trees leave the hidden names out", () => {
        const bad = ENV_CORPUS.flatMap((p, i) => {
          if (!p.mustNotMatch) return [];
          const out = outcome.outputs.get(`probe-${i}`) ?? "";
          return p.mustNotMatch.test(out) ? [`${p.name}: ${out.slice(0, 300)}`] : [];
        });
        expect(bad).toEqual([]);
      });

      it(".env.example stays readable", () => {
        for (const [i, p] of ENV_CORPUS.entries()) if (p.shows) expect(outcome.results.get(`probe-${i}`), p.name).toContain(p.shows);
      });

      it("the secret files are untouched (writes, moves and deletes were refused)", () => {
        for (const [rel, data] of Object.entries(SECRET_FILES)) expect(fs.readFileSync(path.join(repo.dir, rel), "utf8"), rel).toBe(data);
        for (const leaked of ["copied.txt", "link.txt", "moved.txt", "gitmoved.txt", "sub-moved"]) {
          const p = path.join(repo.dir, leaked);
          if (fs.existsSync(p) && fs.statSync(p).isFile()) expect(leaksIn(fs.readFileSync(p, "utf8"), repo), leaked).toEqual([]);
        }
      });

      it("git's index and HEAD still hold the secret files (nothing staged their removal or committed them)", async () => {
        const tracked = await git.listFiles({ fs, dir: repo.dir });
        for (const rel of Object.keys(SECRET_FILES)) expect(tracked, rel).toContain(rel);
        const log = await git.log({ fs, dir: repo.dir });
        expect(log.map((c) => c.commit.message.trim())).toEqual(["base with secrets"]);
      });

      it("refusals of reads name env-blocker", () => {
        const i = ENV_CORPUS.findIndex((p) => p.name === "read_files");
        expect(outcome.results.get(`probe-${i}`)).toContain("env-blocker");
        const j = ENV_CORPUS.findIndex((p) => p.name === "rev");
        expect(outcome.results.get(`probe-${j}`)).toContain("env-blocker");
      });
    });
  }
}

describe("env-blocker as the file view alone, in Plan mode (the read-only view composes with it)", () => {
  let repo: Repo;
  let outcome: RunOutcome;
  const probes = readProbes.filter((p) => "shell" in p || p.tool !== "editor");
  beforeAll(async () => {
    repo = await makeRepo();
    outcome = await runProbes(repo, probes, "view-only", false, "plan");
  }, 240_000);
  afterAll(() => repo && removeRepo(repo.dir));

  it("no tool result nor anything the model was sent holds a .env's bytes; the template reads", () => {
    const leaks = probes.flatMap((p, i) => leaksIn(outcome.results.get(`probe-${i}`) ?? "", repo).map((l) => `${p.name}: ${l}`));
    expect(leaks).toEqual([]);
    expect(leaksIn(outcome.modelSaw, repo)).toEqual([]);
    const i = probes.findIndex((p) => p.name === ".env.example stays readable");
    expect(outcome.results.get(`probe-${i}`)).toContain("example-visible-4242");
  });
});

describe("env-blocker off", () => {
  let repo: Repo;
  let outcome: RunOutcome;
  beforeAll(async () => {
    repo = await makeRepo();
    outcome = await runProbes(repo, readProbes, "off", false);
  }, 240_000);
  afterAll(() => repo && removeRepo(repo.dir));

  it("every form marked `reveals` does show a canary (the corpus is not vacuous)", () => {
    const silent = readProbes.flatMap((p, i) => (p.reveals && leaksIn(outcome.results.get(`probe-${i}`) ?? "", repo).length === 0 ? [p.name] : []));
    expect(silent).toEqual([]);
  });
});
