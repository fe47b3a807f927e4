/**
 * The workspace shell: just-bash over the workspace, plus a `git` command.
 *
 * Layout seen by commands:
 *   /workspace   the workspace (WorkspaceShellFs over a WorkspaceFs; `.git` readable, not writable)
 *   /dev         /dev/null (dev-fs.ts); /dev/stdout and /dev/stderr as redirection targets
 *   /tmp, /home, everything else: scratch memory (just-bash InMemoryFs), shared by a shell and
 *   its read-only twin and writable in both.
 *
 * just-bash starts every exec with fresh shell state; a terminal carries `cwd` and `env` from
 * one result to the next exec. A fresh Bash instance is made per exec (≈1 ms), so concurrent
 * execs (terminal + agent) cannot disturb each other's state.
 */
import type { Transport } from "../git/remote-transfer";
import type { Bash, CustomCommand, ExecResult, InMemoryFs, MountableFs } from "just-bash";
import { ChangeJournal } from "../fs/journal";
import type { IsoFs } from "../fs/types";
import { WorkspaceFs } from "../fs/workspace-fs";
import { type DeniedWrite, WorkspaceShellFs } from "./adapter";
import { createDevFs } from "./dev-fs";
import { fastFind, parseFastFind } from "./fastfind";
import { fastGrep, parseFastGrep } from "./fastgrep";
import { createGitCommand, GIT_SUBCOMMANDS } from "./git";
import { createPythonCommands, PYTHON_COMMAND_NAMES } from "../runtimes/python/command";
import type { PythonRuntime } from "../runtimes/python/runtime";
import { createNodeCommands, NODE_COMMAND_NAMES } from "../runtimes/node/command";
import { createNpmCommands } from "../runtimes/node/npm";
import type { RegistryAccess } from "../packages/registry";
import type { NodeRuntime } from "../runtimes/node/runtime";
import { BoundedStops, PROGRAM_STOP_MS } from "./bounded-stops";
import { isLoneCommand, LIVE_OUTPUT_VAR, LiveOutputs, type LiveSink } from "../runtimes/python/live-output";
import { capOutput, DEFAULT_MAX_OUTPUT_BYTES, DEFAULT_TIMEOUT_MS, type ShellLimits } from "./limits";
import { DEFAULT_MOUNT_POINT, normalizeShellPath, toShellPath, toWorkspacePath } from "./paths";

type JustBash = typeof import("just-bash");

let justBash: Promise<JustBash> | null = null;

/** just-bash is ~400 KB gzipped: it is loaded on first use, not when this module loads. */
export function loadJustBash(): Promise<JustBash> {
  if (!justBash) {
    justBash = import("just-bash");
    justBash.catch(() => {
      justBash = null;
    });
  }
  return justBash;
}

export type CreateShellOptions = {
  /** The raw file system (lightning-fs in the browser, node's fs in tests). */
  fs: IsoFs;
  /** Absolute workspace directory inside `fs`. */
  dir: string;
  /** A read-only mode (Plan, Review): nothing the shell runs may change the workspace (scratch /tmp stays writable). */
  readOnly?: boolean;
  /** The workspace's WorkspaceFs (shares its journal and read cache); made over fs/dir if absent. */
  wsfs?: WorkspaceFs;
  /** Journal for a WorkspaceFs made here (ignored when `wsfs` is given). */
  journal?: ChangeJournal;
  limits?: ShellLimits;
  /** Where the workspace appears inside the shell (default "/workspace"). */
  mountPoint?: string;
  /** Journal origin of file changes made by commands (default "shell"). */
  origin?: string;
  /** Extra environment for every exec (e.g. GIT_AUTHOR_NAME). */
  env?: Record<string, string>;
  /**
   * just-bash's defense-in-depth (patches globals such as setTimeout during an exec). It breaks
   * lightning-fs under Node, so the default is on in browsers and off elsewhere.
   */
  defenseInDepth?: boolean;
  /** Where `python3` runs (a Web Worker in the browser); without one there is no python3. */
  python?: PythonRuntime;
  /** Where `node` runs (a Web Worker in the browser); without one there is no node. */
  node?: NodeRuntime;
  /** How `git` fetch/pull/push/clone reach a server (lib/shell/git/context.ts); absent: no network. */
  gitTransport?: () => Transport;
  /** The npm registry `npm install` may use, read on each install (the user's setting); undefined: downloads off. */
  packages?: () => RegistryAccess | undefined;
};

export type ShellExecOptions = {
  /** Shell path of the working directory (default: the workspace root). A relative path is
   * taken as workspace-relative. */
  cwd?: string;
  /** Environment, typically the `env` of the previous result. */
  env?: Record<string, string>;
  /** Ctrl-C: aborting resolves the exec with exit code 130. */
  signal?: AbortSignal;
  /** Time limit for this exec (default: the shell's, 60 s); exit code 124 when hit. */
  timeoutMs?: number;
  /** Standard input for the command line. */
  stdin?: string;
  /** The previous command line's exit status, seen as `$?` (a terminal carries it from line to line). */
  lastExitCode?: number;
  /** Output shown as it is produced, for a command line that is one python3 or node command with no
   * pipe or redirection (lib/runtimes/python/live-output.ts); it is not repeated in the result. */
  onOutput?: LiveSink;
};

export type ShellResult = {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** Working directory after the command (pass to the next exec). */
  cwd: string;
  /** Environment after the command (pass to the next exec). */
  env: Record<string, string>;
  /** True when the output was cut to the output cap. */
  truncated?: boolean;
  durationMs: number;
};

export interface Shell {
  readonly mountPoint: string;
  readonly isReadOnly: boolean;
  readonly wsfs: WorkspaceFs;
  readonly journal: ChangeJournal;
  readonly limits: Required<ShellLimits>;
  /** Run a command line; never throws (failures are a non-zero exit code and stderr). */
  exec(command: string, opts?: ShellExecOptions): Promise<ShellResult>;
  /** A twin over the same workspace, caches and scratch memory that cannot change the workspace. */
  readOnlyView(): Shell;
  /** Shell path ("/workspace/src/a.ts") of a workspace-relative path ("src/a.ts"). */
  toShellPath(rel: string): string;
  /** Workspace-relative path of a shell path (relative ones resolved against `cwd`), or null
   * when it is outside the workspace. */
  toWorkspacePath(path: string, cwd?: string): string | null;
  /** Every command name the shell knows (builtins, just-bash commands, git). */
  commandNames(): string[];
  /** List a directory of the shell's namespace (for completion); null if not a directory. */
  listDir(shellPath: string): Promise<{ name: string; isDirectory: boolean }[] | null>;
}

/** Shell builtins handled by the interpreter itself (not in getCommandNames()). */
export const SHELL_BUILTINS = [
  "cd", "export", "unset", "set", "shopt", "eval", "source", ".", "exit", "return", "break", "continue", "local",
  "declare", "typeset", "readonly", "read", "shift", "test", "[", "type", "command", "builtin", "let", "getopts",
  "trap", "wait", "exec", "pushd", "popd", "dirs", "mapfile", "readarray", "hash", "true", "false", ":",
];

class ShellCore {
  readonly denials: DeniedWrite[] = [];
  readonly live = new LiveOutputs();
  readonly boundedStops = new BoundedStops();
  readonly python: PythonRuntime | undefined;
  readonly node: NodeRuntime | undefined;

  constructor(
    readonly jb: JustBash,
    readonly fs: IsoFs,
    readonly wsfs: WorkspaceFs,
    readonly scratch: { base: InMemoryFs; tmp: InMemoryFs; dev: InMemoryFs },
    readonly limits: Required<ShellLimits>,
    readonly mountPoint: string,
    readonly origin: string,
    readonly env: Record<string, string>,
    readonly defenseInDepth: boolean,
    python: PythonRuntime | undefined,
    readonly gitTransport: (() => Transport) | undefined,
    node: NodeRuntime | undefined,
    readonly packages: (() => RegistryAccess | undefined) | undefined,
  ) {
    this.python = python && this.boundedStops.track(python);
    this.node = node && this.boundedStops.track(node);
  }

  /** Commands whose output can be shown as it is produced (live-output.ts). */
  get liveCommands(): string[] {
    return [...(this.python ? PYTHON_COMMAND_NAMES : []), ...(this.node ? NODE_COMMAND_NAMES : [])];
  }
}

function isBrowserLike(): boolean {
  const g = globalThis as { document?: unknown; importScripts?: unknown };
  return typeof g.document !== "undefined" || typeof g.importScripts === "function";
}

export async function createShell(opts: CreateShellOptions): Promise<Shell> {
  const jb = await loadJustBash();
  const mountPoint = normalizeShellPath(opts.mountPoint ?? DEFAULT_MOUNT_POINT);
  if (mountPoint === "/" || mountPoint === "/tmp") throw new Error(`Cannot mount the workspace at ${mountPoint}`);
  const wsfs = opts.wsfs ?? new WorkspaceFs({ fs: opts.fs, dir: opts.dir, journal: opts.journal ?? new ChangeJournal() });
  const base = new jb.InMemoryFs();
  // No /bin or /usr/bin: when those exist just-bash looks commands up there (as files).
  for (const d of ["/home/user", "/dev"]) await base.mkdir(d, { recursive: true });
  const tmp = new jb.InMemoryFs();
  const dev = createDevFs(jb.InMemoryFs);
  const limits: Required<ShellLimits> = {
    maxOutputBytes: opts.limits?.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    timeoutMs: opts.limits?.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  const core = new ShellCore(
    jb,
    opts.fs,
    wsfs,
    { base, tmp, dev },
    limits,
    mountPoint,
    opts.origin ?? "shell",
    opts.env ?? {},
    opts.defenseInDepth ?? isBrowserLike(),
    opts.python,
    opts.gitTransport,
    opts.node,
    opts.packages,
  );
  return new WorkspaceShell(core, (opts.readOnly ?? false) || wsfs.readOnly);
}

class WorkspaceShell implements Shell {
  readonly isReadOnly: boolean;
  private readonly adapter: WorkspaceShellFs;
  private readonly mfs: MountableFs;
  private readonly commands: CustomCommand[];
  private twin: WorkspaceShell | null = null;

  constructor(
    private readonly core: ShellCore,
    readOnly: boolean,
  ) {
    this.isReadOnly = readOnly;
    this.adapter = new WorkspaceShellFs({
      wsfs: core.wsfs,
      mountPoint: core.mountPoint,
      readOnly,
      origin: core.origin,
      onDenied: (d) => core.denials.push(d),
    });
    this.mfs = new core.jb.MountableFs({
      base: core.scratch.base,
      mounts: [
        { mountPoint: core.mountPoint, filesystem: this.adapter },
        { mountPoint: "/tmp", filesystem: core.scratch.tmp },
        { mountPoint: "/dev", filesystem: core.scratch.dev },
      ],
    });
    this.commands = [
      createGitCommand(core.jb, {
        fs: core.fs,
        // Read-only: git's work-tree writes would be refused twice over (subcommand gate, then
        // this view); its .git writes are refused by the read-only fs GitContext wraps.
        wsfs: readOnly ? core.wsfs.readOnlyView() : core.wsfs,
        mountPoint: core.mountPoint,
        readOnly,
        // The agent's view hides paths (lib/fs/hidden-view): git must not show them either.
        hidden: core.wsfs.hidden,
        onRawChange: () => this.adapter.invalidate(),
        transport: core.gitTransport,
      }),
      ...surfacingWrappers(core),
      ...this.fastPaths(),
      ...(core.python
        ? createPythonCommands(core.jb, { runtime: core.python, wsfs: this.wsfs, mountPoint: core.mountPoint, readOnly, origin: core.origin, live: core.live })
        : []),
      ...(core.node ? createNodeCommands(core.jb, { runtime: core.node, wsfs: this.wsfs, mountPoint: core.mountPoint, readOnly, origin: core.origin, live: core.live }) : []),
      ...(core.node
        ? createNpmCommands(core.jb, {
            mountPoint: core.mountPoint,
            shellCommands: () => this.commandNames(),
            liveCommands: () => core.liveCommands,
            live: core.live,
            wsfs: this.wsfs,
            readOnly,
            origin: core.origin,
            packages: core.packages,
          })
        : []),
    ];
  }

  get mountPoint(): string {
    return this.core.mountPoint;
  }
  get wsfs(): WorkspaceFs {
    return this.isReadOnly ? this.adapter.wsfs : this.core.wsfs;
  }
  get journal(): ChangeJournal {
    return this.core.wsfs.journal;
  }
  get limits(): Required<ShellLimits> {
    return this.core.limits;
  }

  readOnlyView(): Shell {
    if (this.isReadOnly) return this;
    this.twin ??= new WorkspaceShell(this.core, true);
    return this.twin;
  }

  toShellPath(rel: string): string {
    return toShellPath(this.core.mountPoint, rel);
  }

  toWorkspacePath(path: string, cwd?: string): string | null {
    return toWorkspacePath(this.core.mountPoint, path, cwd ?? this.core.mountPoint);
  }

  commandNames(): string[] {
    const names = new Set<string>([...this.core.jb.getCommandNames(), ...SHELL_BUILTINS, "git", ...this.core.liveCommands]);
    return [...names].sort();
  }

  async listDir(shellPath: string): Promise<{ name: string; isDirectory: boolean }[] | null> {
    try {
      const st = await this.mfs.stat(shellPath);
      if (!st.isDirectory) return null;
      const names = await this.mfs.readdir(shellPath);
      const base = shellPath.endsWith("/") ? shellPath : shellPath + "/";
      return await Promise.all(
        names.map(async (name) => {
          const s = await this.mfs.stat(base + name).catch(() => null);
          return { name, isDirectory: s?.isDirectory ?? false };
        }),
      );
    } catch {
      return null;
    }
  }

  /**
   * grep and find with fast paths for their most common forms over the workspace (see
   * fastgrep.ts / fastfind.ts); every other invocation runs just-bash's own command.
   */
  private fastPaths(): CustomCommand[] {
    const mount = this.core.mountPoint;
    const toMount = (p: string): string | null => (p === mount ? "/" : p.startsWith(mount + "/") ? p.slice(mount.length) : null);
    const grep = this.core.jb.defineCommand("grep", async (args, ctx) => {
      const parsed = parseFastGrep(args);
      if (parsed) {
        const r = await fastGrep(parsed, this.adapter, ctx.cwd, toMount, ctx.signal);
        if (r) return r;
      }
      if (!ctx.origCommand) return { stdout: "", stderr: "grep: not available\n", exitCode: 127 };
      return ctx.origCommand(args);
    });
    const find = this.core.jb.defineCommand("find", async (args, ctx) => {
      const parsed = parseFastFind(args);
      if (parsed) {
        const r = await fastFind(parsed, this.adapter, ctx.cwd, toMount, ctx.signal);
        if (r) return r;
      }
      if (!ctx.origCommand) return { stdout: "", stderr: "find: not available\n", exitCode: 127 };
      return ctx.origCommand(args);
    });
    return [grep, find];
  }

  private baseEnv(cwd: string): Record<string, string> {
    return {
      HOME: this.core.mountPoint,
      USER: "user",
      LOGNAME: "user",
      SHELL: "/bin/bash",
      TERM: "xterm-256color",
      LANG: "C.UTF-8",
      PAGER: "cat",
      GIT_PAGER: "cat",
      PATH: "/usr/bin:/bin",
      ...this.core.env,
      PWD: cwd,
    };
  }

  private async resolveCwd(requested: string | undefined): Promise<{ cwd: string; warning: string }> {
    const mount = this.core.mountPoint;
    if (requested === undefined || requested === "") return { cwd: mount, warning: "" };
    const abs = requested.startsWith("/") ? normalizeShellPath(requested) : toShellPath(mount, requested);
    try {
      const st = await this.mfs.stat(abs);
      if (st.isDirectory) return { cwd: abs, warning: "" };
    } catch {
      // fall through
    }
    return { cwd: mount, warning: `bash: cd: ${abs}: No such file or directory (now in ${mount})\n` };
  }

  async exec(command: string, opts: ShellExecOptions = {}): Promise<ShellResult> {
    const started = Date.now();
    const { cwd, warning } = await this.resolveCwd(opts.cwd);
    const env: Record<string, string> = { ...this.baseEnv(cwd), ...(opts.env ?? {}), PWD: cwd };
    delete env[LIVE_OUTPUT_VAR];
    const finish = (r: { stdout: string; stderr: string; exitCode: number; env?: Record<string, string> }): ShellResult => {
      const capped = capOutput(r.stdout, warning + r.stderr, this.core.limits.maxOutputBytes);
      const outEnv = { ...(r.env ?? env) };
      delete outEnv[LIVE_OUTPUT_VAR];
      const result: ShellResult = {
        stdout: capped.stdout,
        stderr: capped.stderr,
        exitCode: r.exitCode,
        cwd: outEnv.PWD && outEnv.PWD.startsWith("/") ? outEnv.PWD : cwd,
        env: outEnv,
        durationMs: Date.now() - started,
      };
      if (capped.truncated) result.truncated = true;
      return result;
    };

    if (opts.signal?.aborted) return finish({ stdout: "", stderr: "^C\n", exitCode: 130 });
    const liveToken = opts.onOutput && isLoneCommand(command, this.core.liveCommands) ? this.core.live.open(opts.onOutput) : null;

    const timeoutMs = opts.timeoutMs ?? this.core.limits.timeoutMs;
    const controller = new AbortController();
    let reason: "interrupt" | "timeout" | null = null;
    const onUserAbort = () => {
      reason ??= "interrupt";
      controller.abort();
    };
    opts.signal?.addEventListener("abort", onUserAbort, { once: true });
    const timer = setTimeout(() => {
      reason ??= "timeout";
      controller.abort();
    }, timeoutMs);
    // just-bash stops at the next statement boundary; a command that ignores the signal
    // gets this much longer before the exec is abandoned (it keeps running detached).
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    // A Python or Node program is waited for: it stops itself within its own bound (bounded-stops.ts).
    const abandoned = new Promise<"abandoned">((resolve) => {
      const arm = () => {
        graceTimer = setTimeout(() => (this.core.boundedStops.running ? arm() : resolve("abandoned")), 300);
      };
      controller.signal.addEventListener("abort", arm);
    });

    const denialsBefore = this.core.denials.length;
    const execEnv = liveToken ? { ...env, [LIVE_OUTPUT_VAR]: liveToken } : env;
    const bash = this.newBash(cwd, execEnv, timeoutMs);
    this.adapter.beginBatch();
    const run = bash
      .exec(withLastStatus(command, opts.lastExitCode), { cwd, env: execEnv, replaceEnv: true, signal: controller.signal, stdin: opts.stdin, rawScript: true })
      .then(
        (r) => ({ ok: true as const, r }),
        (error: unknown) => ({ ok: false as const, error }),
      );
    let outcome: Awaited<typeof run> | "abandoned";
    try {
      outcome = await Promise.race([run, abandoned]);
    } finally {
      clearTimeout(timer);
      if (graceTimer !== undefined) clearTimeout(graceTimer);
      opts.signal?.removeEventListener("abort", onUserAbort);
      this.adapter.endBatch();
      if (liveToken) this.core.live.close(liveToken);
    }

    let stdout = "";
    let stderr = "";
    let exitCode: number;
    let outEnv: Record<string, string> | undefined;
    if (outcome === "abandoned") {
      exitCode = 1;
    } else if (outcome.ok) {
      stdout = outcome.r.stdout;
      stderr = outcome.r.stderr;
      exitCode = outcome.r.exitCode;
      outEnv = outcome.r.env;
    } else {
      stderr = this.describeError(outcome.error, cwd);
      exitCode = 1;
    }

    if (reason === "interrupt") {
      stderr = stripAbortNoise(stderr) + "^C\n";
      exitCode = 130;
    } else if (reason === "timeout") {
      stderr = stripAbortNoise(stderr) + `bash: command timed out after ${formatSeconds(timeoutMs)}\n`;
      exitCode = 124;
    }

    const denied = this.core.denials.slice(denialsBefore);
    if (denied.length > 0 && !/Read-only file system|Permission denied/.test(stderr)) {
      stderr += this.isReadOnly
        ? `bash: ${denied.length} write(s) refused: the workspace is read-only in this mode\n`
        : `bash: ${denied.length} write(s) into .git refused\n`;
    }
    this.core.denials.length = Math.min(this.core.denials.length, denialsBefore);
    return finish({ stdout, stderr, exitCode, env: outEnv });
  }

  private newBash(cwd: string, env: Record<string, string>, timeoutMs: number): Bash {
    const maxOut = this.core.limits.maxOutputBytes;
    return new this.core.jb.Bash({
      fs: this.mfs,
      cwd,
      env,
      customCommands: this.commands,
      defenseInDepth: this.core.defenseInDepth,
      executionLimits: {
        // Our own cap keeps the head of the output; just-bash's discards all of it, so its
        // limit is only a backstop against runaway memory use.
        maxOutputSize: Math.max(16 * 1024 * 1024, maxOut * 8),
        maxExecutionTimeMs: timeoutMs + 5_000,
        maxExtensionCleanupTimeMs: PROGRAM_STOP_MS,
      },
    });
  }

  /** Display form of a path: relative to cwd when inside it, else the shell path. */
  private shown(shellPath: string, cwd: string): string {
    const rel = toWorkspacePath(this.core.mountPoint, shellPath, cwd);
    const cwdRel = toWorkspacePath(this.core.mountPoint, cwd, cwd);
    if (rel !== null && cwdRel !== null && (cwdRel === "" || rel.startsWith(cwdRel + "/"))) return rel.slice(cwdRel === "" ? 0 : cwdRel.length + 1);
    return shellPath;
  }

  /** just-bash rejects (instead of failing the command) when a redirect target cannot be
   * written; render that the way bash reports it. */
  private describeError(error: unknown, cwd: string): string {
    const e = error as { code?: unknown; path?: unknown; syscall?: unknown; message?: unknown };
    if (typeof e?.syscall === "string" && typeof e.path === "string") {
      const shown = this.shown(toShellPath(this.core.mountPoint, e.path), cwd);
      const text: Record<string, string> = {
        EROFS: "Read-only file system",
        EACCES: "Permission denied",
        ENOENT: "No such file or directory",
        EISDIR: "Is a directory",
        ENOTDIR: "Not a directory",
        ENOSPC: "No space left on device",
      };
      const msg = text[String(e.code)] ?? (typeof e.message === "string" ? e.message : String(error));
      return `bash: ${shown}: ${msg}\n`;
    }
    const msg = error instanceof Error ? error.message : String(error);
    return `bash: ${msg}\n`;
  }
}

/** Each exec starts a fresh interpreter, whose `$?` is 0: a subshell exiting with the previous
 * status, on the same line, sets it without moving $LINENO. */
function withLastStatus(command: string, last: number | undefined): string {
  const code = (last ?? 0) & 0xff;
  return code === 0 ? command : `(exit ${code}); ${command}`;
}

function stripAbortNoise(stderr: string): string {
  return stderr.replace(/^bash: (execution aborted|.*exceeded (its|execution) (execution )?deadline.*)\n/gm, "");
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000}s` : `${(ms / 1000).toFixed(1)}s`;
}

/**
 * just-bash's `rm -f`/`rm -rf` swallow every error and `sed … w file` ignores a failed write,
 * so a refused write would look like success. These wrappers run the real command and turn
 * refusals recorded by the adapter during it into a failure.
 */
function surfacingWrappers(core: ShellCore): CustomCommand[] {
  const wrap = (name: string, verb: string) =>
    core.jb.defineCommand(name, async (args, ctx) => {
      const before = core.denials.length;
      if (!ctx.origCommand) return { stdout: "", stderr: `${name}: not available\n`, exitCode: 127 };
      const r: ExecResult = await ctx.origCommand(args);
      const denied = core.denials.slice(before);
      if (denied.length === 0 || r.exitCode !== 0) return r;
      const lines = denied.map((d) => {
        const shellPath = toShellPath(core.mountPoint, d.path);
        const rel = toWorkspacePath(core.mountPoint, shellPath, ctx.cwd);
        const cwdRel = toWorkspacePath(core.mountPoint, ctx.cwd, ctx.cwd);
        const shown = rel !== null && cwdRel !== null && (cwdRel === "" || rel.startsWith(cwdRel + "/")) ? rel.slice(cwdRel === "" ? 0 : cwdRel.length + 1) : shellPath;
        return `${name}: cannot ${verb} '${shown}': ${d.code === "EROFS" ? "Read-only file system" : "Permission denied"}\n`;
      });
      return { ...r, stderr: r.stderr + lines.join(""), exitCode: 1 };
    });
  return [wrap("rm", "remove"), wrap("sed", "write")];
}

export { GIT_SUBCOMMANDS };
