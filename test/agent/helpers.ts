/** Helpers for agent tests: node:fs workspaces, fake checkpoints and shell, event capture. */
import fs from "node:fs";
import { afterEach } from "vitest";
import os from "node:os";
import path from "node:path";
import { ChangeJournal, WorkspaceFs, type IsoFs } from "../../lib/fs";
import { AgentSession, type AgentSessionOptions } from "../../lib/agent/session";
import type { AgentEvent, AgentEventType } from "../../lib/agent/events";
import type { AgentDeps, CheckpointService, ShellLike } from "../../lib/agent/types";
import { ScriptedLanguageModel, type Script, type ScriptedTurn } from "../../lib/providers/scripted";

export type TempWs = { dir: string; wsfs: WorkspaceFs; read(rel: string): string; exists(rel: string): boolean; write(rel: string, data: string): void; cleanup(): void };

export function tempWs(files: Record<string, string | Uint8Array> = {}): TempWs {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-agent-"));
  const write = (rel: string, data: string | Uint8Array) => {
    fs.mkdirSync(path.dirname(path.join(dir, rel)), { recursive: true });
    fs.writeFileSync(path.join(dir, rel), data);
  };
  for (const [p, d] of Object.entries(files)) write(p, d);
  const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir, journal: new ChangeJournal() });
  return {
    dir,
    wsfs,
    read: (rel) => fs.readFileSync(path.join(dir, rel), "utf8"),
    exists: (rel) => fs.existsSync(path.join(dir, rel)),
    write,
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

export type FakeCheckpoints = CheckpointService & {
  created: { sessionId: string; run: number | string; label?: string; kind?: "run" | "end" | "call"; at: number; doneAt?: number }[];
  restored: { ref: string; paths?: string[] }[];
  delayMs: number;
  fail?: string;
};

export function fakeCheckpoints(delayMs = 0): FakeCheckpoints {
  const cp: FakeCheckpoints = {
    created: [],
    restored: [],
    delayMs,
    async create(opts) {
      const rec: FakeCheckpoints["created"][number] = { ...opts, at: performance.now() };
      cp.created.push(rec);
      if (cp.delayMs) await new Promise((r) => setTimeout(r, cp.delayMs));
      if (cp.fail) throw new Error(cp.fail);
      rec.doneAt = performance.now();
      return { ref: `refs/tabula/checkpoints/${opts.sessionId}/${opts.run}`, oid: `oid${opts.run}`.padEnd(40, "0"), createdAt: Date.now(), label: opts.label, stats: { ms: cp.delayMs } };
    },
    async restore(ref, opts) {
      cp.restored.push({ ref, paths: opts?.paths });
      return { txid: `tx${cp.restored.length}`, changed: [{ path: "a.txt", change: "modified" }] };
    },
    async undoRestore(txid) {
      return { txid, changed: [] };
    },
  };
  return cp;
}

export type FakeShell = {
  commands: { command: string; cwd?: string; aborted?: boolean; readOnly: boolean }[];
  /** Commands that hang until aborted. */
  hang: Set<string>;
  /** A canned answer per command; a promise holds the command until it resolves. */
  responses: Map<string, { stdout?: string; stderr?: string; exitCode?: number } | Promise<{ stdout?: string; stderr?: string; exitCode?: number }>>;
};

export function fakeShell(): { shell: (opts: { readOnly: boolean }) => Promise<ShellLike>; state: FakeShell } {
  const state: FakeShell = { commands: [], hang: new Set(), responses: new Map() };
  const make = (readOnly: boolean): ShellLike => ({
    async exec(command, opts = {}) {
      const rec: FakeShell["commands"][number] = { command, cwd: opts.cwd, readOnly };
      state.commands.push(rec);
      if (state.hang.has(command)) {
        await new Promise<void>((resolve) => {
          if (opts.signal?.aborted) return resolve();
          opts.signal?.addEventListener("abort", () => resolve(), { once: true });
        });
        rec.aborted = true;
        return { stdout: "partial output\n", stderr: "^C\n", exitCode: 130 };
      }
      const r = (await state.responses.get(command)) ?? { stdout: `ran: ${command}\n` };
      return { stdout: r.stdout ?? "", stderr: r.stderr ?? "", exitCode: r.exitCode ?? 0 };
    },
  });
  return { shell: async ({ readOnly }) => make(readOnly), state };
}

export function deps(ws: TempWs, cp = fakeCheckpoints(), sh = fakeShell()): AgentDeps & { cp: FakeCheckpoints; sh: FakeShell } {
  return { wsfs: ws.wsfs, checkpoints: cp, shell: sh.shell, cp, sh: sh.state };
}

export function scripted(script: Script, opts: { modelId?: string; advance?: "per-request" | "per-step" } = {}): ScriptedLanguageModel {
  return new ScriptedLanguageModel({ script, modelId: opts.modelId ?? "test-model", advance: opts.advance, chunkSize: 5 });
}

export type Harness = {
  session: AgentSession;
  events: AgentEvent[];
  model: ScriptedLanguageModel;
  deps: ReturnType<typeof deps>;
  ws: TempWs;
  of<T extends AgentEventType>(type: T): Extract<AgentEvent, { type: T }>[];
  types(): string[];
};

/** A session over a temp workspace with a scripted model; `approveAll` answers approvals at once. */
export function harness(
  turns: Script | ScriptedTurn[],
  opts: { files?: Record<string, string>; approveAll?: boolean; session?: Partial<AgentSessionOptions>; checkpointDelayMs?: number; modelId?: string } = {},
): Harness {
  const ws = tempWs(opts.files);
  const d = deps(ws, fakeCheckpoints(opts.checkpointDelayMs ?? 0));
  const model = scripted(turns, { modelId: opts.modelId });
  const events: AgentEvent[] = [];
  const session = new AgentSession({ deps: d, model, workspaceId: "ws1", retry: { initialDelayMs: 1, maxDelayMs: 5 }, ...opts.session });
  session.subscribe((e) => {
    events.push(e);
    if (opts.approveAll && e.type === "approval-requested") session.approve(e.approvalId);
  });
  return {
    session,
    events,
    model,
    deps: d,
    ws,
    of: (type) => events.filter((e) => e.type === type) as never,
    types: () => events.map((e) => e.type),
  };
}

/** Resolve when the session emits an event of `type` (matching `pred`). */
export function nextEvent<T extends AgentEventType>(session: AgentSession, type: T, pred: (e: Extract<AgentEvent, { type: T }>) => boolean = () => true): Promise<Extract<AgentEvent, { type: T }>> {
  return new Promise((resolve) => {
    const off = session.subscribe((e) => {
      if (e.type === type && pred(e as Extract<AgentEvent, { type: T }>)) {
        off();
        resolve(e as Extract<AgentEvent, { type: T }>);
      }
    });
  });
}

/** The text of every tool result the model was sent in call `i`. */
export function toolResultsSent(model: ScriptedLanguageModel, i: number): string[] {
  const out: string[] = [];
  for (const m of model.calls[i]?.prompt ?? []) {
    if (m.role !== "tool") continue;
    for (const p of m.content) if (p.type === "tool-result" && "value" in p.output) out.push(String(p.output.value));
  }
  return out;
}

/** Test-file cleanup registry. */
export function cleanupList(): { add(fn: () => void): void; run(): void } {
  const fns: (() => void)[] = [];
  return { add: (fn) => void fns.push(fn), run: () => void fns.splice(0).reverse().forEach((f) => f()) };
}

/** `harness` for a test file: every workspace it makes is removed after each test. */
export function harnessPerTest(): { h: (...args: Parameters<typeof harness>) => Harness; cleanups: ReturnType<typeof cleanupList> } {
  const cleanups = cleanupList();
  afterEach(() => cleanups.run());
  const h = (...args: Parameters<typeof harness>): Harness => {
    const x = harness(...args);
    cleanups.add(x.ws.cleanup);
    return x;
  };
  return { h, cleanups };
}
