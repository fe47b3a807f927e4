/**
 * The shell's `python3` / `python` commands (and a `pip` that explains itself): parse CPython's
 * command line, hand the program and a snapshot of the workspace to a PythonRuntime, collect
 * its output, and write what it changed back through the workspace fs.
 */
import type { Command, ResolvedCommandContext } from "just-bash";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import { resolveShellPath, toWorkspacePath } from "../../shell/paths";
import { parsePythonArgs, PYTHON_USAGE } from "./args";
import type { PythonJob, PythonTarget } from "./protocol";
import type { PythonRuntime } from "./runtime";
import { programEnvironment, type LiveOutputs, type LiveSink } from "./live-output";
import { applyChanges, snapshotForProgram } from "./workspace-sync";

export type PythonCommandOptions = {
  runtime: PythonRuntime;
  /** The shell's view of the workspace (read-only in Plan/Review modes). */
  wsfs: WorkspaceFs;
  mountPoint: string;
  readOnly: boolean;
  /** Journal origin of the program's writes. */
  origin: string;
  /** Live sinks of the shell's execs (see live-output.ts). */
  live?: LiveOutputs;
};

/** Standard modules that cannot work in a tab, with the reason given instead of a hang. */
const REFUSED_MODULES: Record<string, string> = {
  "http.server": "cannot listen on a port: programs run inside the browser tab, where no server can be started",
  pip: PIP_MESSAGE(),
  ensurepip: PIP_MESSAGE(),
  venv: "virtual environments are not available: there is one interpreter, in the browser tab",
};

function PIP_MESSAGE(): string {
  return "package downloads are off, so packages cannot be installed; the standard library is available";
}

/** Most output a run keeps (the shell caps what it shows much lower). */
const MAX_COLLECTED_BYTES = 16 * 1024 * 1024;

type Result = { stdout: string; stderr: string; exitCode: number };

export function createPythonCommands(jb: Pick<typeof import("just-bash"), "defineCommand">, opts: PythonCommandOptions): Command[] {
  const python = (name: string) => jb.defineCommand(name, (args, ctx) => runPython(name, args, ctx, opts));
  const pip = (name: string) =>
    jb.defineCommand(name, async () => ({ stdout: "", stderr: `${name}: ${PIP_MESSAGE()}\n`, exitCode: 1 }));
  return [python("python3"), python("python"), pip("pip"), pip("pip3")];
}

export const PYTHON_COMMAND_NAMES = ["python3", "python", "pip", "pip3"];

async function runPython(name: string, argv: string[], ctx: ResolvedCommandContext, opts: PythonCommandOptions): Promise<Result> {
  const parsed = parsePythonArgs(argv);
  if (parsed.kind === "help") return { stdout: PYTHON_USAGE, stderr: "", exitCode: 0 };
  if (parsed.kind === "usage-error") return { stdout: "", stderr: `${parsed.message}\n${PYTHON_USAGE.split("\n")[0]}\n`, exitCode: 2 };
  if (parsed.kind === "version") {
    try {
      return { stdout: `Python ${await opts.runtime.version()}\n`, stderr: "", exitCode: 0 };
    } catch (err) {
      return { stdout: "", stderr: `${name}: ${(err as Error).message}\n`, exitCode: 1 };
    }
  }

  const stdinText = String((ctx.stdin as unknown) ?? "");
  // just-bash carries stdin as latin1 bytes (one char per byte).
  const stdin = Uint8Array.from(stdinText, (c) => c.charCodeAt(0) & 0xff);
  const inWorkspace = toWorkspacePath(opts.mountPoint, ctx.cwd, ctx.cwd) !== null;
  const cwd = inWorkspace ? ctx.cwd : opts.mountPoint;

  let target: PythonTarget;
  let args0: string;
  let stdinForProgram = stdin;
  const t = parsed.target;
  if (t.kind === "code") {
    target = t;
    args0 = "-c";
  } else if (t.kind === "module") {
    const refusal = REFUSED_MODULES[t.module] ?? (t.module.startsWith("pip.") ? PIP_MESSAGE() : undefined);
    if (refusal) return { stdout: "", stderr: `${name}: -m ${t.module}: ${refusal}\n`, exitCode: 1 };
    target = t;
    args0 = t.module; // runpy replaces it with the module's path, as CPython does
  } else if (t.kind === "script") {
    const abs = resolveShellPath(ctx.cwd, t.path);
    const rel = toWorkspacePath(opts.mountPoint, abs);
    const st = rel === null ? null : await opts.wsfs.stat(rel).catch(() => null);
    if (rel === null || !st) return { stdout: "", stderr: `${name}: can't open file '${abs}': [Errno 2] No such file or directory\n`, exitCode: 2 };
    target = { kind: "script", path: abs };
    args0 = t.path;
  } else {
    if (stdin.length === 0) {
      return { stdout: "", stderr: `${name}: the interactive prompt is not available yet; run a file, -c 'code', -m module, or pipe a program in\n`, exitCode: 2 };
    }
    // `python3 -` or a piped program: the program is stdin, and its own stdin is empty.
    target = { kind: "code", code: new TextDecoder().decode(stdin) };
    args0 = "-";
    stdinForProgram = new Uint8Array();
  }

  const snapshot = await snapshotForProgram(name, opts.wsfs);
  if ("error" in snapshot) return { stdout: "", stderr: snapshot.error, exitCode: 1 };
  const { env, live } = programEnvironment(ctx, opts.live);
  const job: PythonJob = {
    target,
    argv: [args0, ...parsed.args],
    cwd,
    env,
    extraPath: parsed.ignoreEnv || !env.PYTHONPATH ? [] : env.PYTHONPATH.split(":").filter(Boolean).map((p) => resolveShellPath(cwd, p)),
    stdin: stdinForProgram,
    mountPoint: opts.mountPoint,
    files: snapshot.files,
    dirs: snapshot.dirs,
    readOnly: opts.readOnly,
  };

  const out = new OutputCollector(live);
  let outcome;
  try {
    outcome = await opts.runtime.run(job, { onOutput: (s, d) => out.push(s, d), signal: ctx.signal });
  } catch (err) {
    const partial = out.result();
    return { stdout: partial.stdout, stderr: partial.stderr + `${name}: ${(err as Error).message}\n`, exitCode: 1 };
  }
  const warnings = opts.readOnly ? [] : await applyChanges(opts.wsfs, snapshot, outcome.changes, opts.origin);
  const r = out.result();
  let stderr = r.stderr + warnings.map((w) => w + "\n").join("");
  if (outcome.stopped === "killed") stderr += `${name}: stopped; the program's file changes were discarded\n`;
  return { stdout: r.stdout, stderr, exitCode: outcome.exitCode };
}

/** UTF-8 decoding across chunk boundaries, per stream: to the live sink, or kept up to a cap (node's command uses it too). */
export class OutputCollector {
  private readonly decoders = { stdout: new TextDecoder(), stderr: new TextDecoder() };
  private readonly text = { stdout: "", stderr: "" };
  private bytes = 0;
  private cut = false;

  constructor(
    private readonly live?: LiveSink,
    private readonly command = "python3",
  ) {}

  push(stream: "stdout" | "stderr", data: Uint8Array): void {
    const text = this.decoders[stream].decode(data, { stream: true });
    if (this.live) return text === "" ? undefined : this.live(stream, text);
    if (this.cut) return;
    this.bytes += data.length;
    if (this.bytes > MAX_COLLECTED_BYTES) {
      this.cut = true;
      this.text.stderr += `\n${this.command}: output beyond 16 MB was dropped\n`;
      return;
    }
    this.text[stream] += text;
  }

  result(): { stdout: string; stderr: string } {
    const rest = { stdout: this.decoders.stdout.decode(), stderr: this.decoders.stderr.decode() };
    if (this.live) {
      for (const s of ["stdout", "stderr"] as const) if (rest[s]) this.live(s, rest[s]);
      return { stdout: "", stderr: "" };
    }
    return { stdout: this.text.stdout + rest.stdout, stderr: this.text.stderr + rest.stderr };
  }
}
