/**
 * The shell's `npm` and `npx`, for what runs in the tab: package.json scripts (`npm test`,
 * `npm start`, `npm run <name> [-- args]`, with their pre/post scripts and npm's environment) run
 * through the shell like any command line, and `npx <bin>` runs a package's bin from the
 * workspace's node_modules with `node`. A script or npx naming a package bin ("mocha test/") runs
 * that bin's file with `node`, as npm's `.bin` links would; `tsx` and `ts-node` are `node` here,
 * which runs TypeScript itself. `npm install` / `ci` / `update` / `uninstall` go to
 * lib/packages/install.ts when the user has allowed package downloads (else they say how); what
 * else npm does that the tab cannot is refused with a message saying so.
 *
 * Written here rather than taken from npm (the CLI is a Node program with a process, a cache
 * and child processes): what is kept is its observable behaviour for scripts — the "> pkg@1.0.0
 * test" banner, `-s` to silence it, the exit code, "Missing script" with the list.
 */
import type { Command, ResolvedCommandContext } from "just-bash";
import { resolveShellPath, toWorkspacePath } from "../../shell/paths";
import { isLoneCommand, LIVE_OUTPUT_VAR, programEnvironment, type LiveOutputs, type LiveSink } from "../python/live-output";
import type { WorkspaceFs } from "../../fs/workspace-fs";
import type { RegistryAccess } from "../../packages/registry";

/** The npm that ships with the node this runtime reports (process.ts's NODE_VERSION). */
export const NPM_VERSION = "10.9.0";

type Result = { stdout: string; stderr: string; exitCode: number };

type PackageJson = { name?: string; version?: string; scripts?: Record<string, string>; bin?: string | Record<string, string> };

/** Bins that are `node` itself here: it compiles TypeScript on the fly. */
const NODE_ALIASES = new Set(["tsx", "ts-node", "ts-node-esm", "node", "nodejs"]);

const NPM_USAGE = `npm <command>

In the tab:
  npm test | npm t          run the "test" script (and pretest/posttest)
  npm start                 run the "start" script
  npm run <script> [-- args]   run a package.json script; npm run lists them
  npm -v                    print the version

Not in the tab (they need the network or a system): install, ci, update, publish, exec of a
package that is not in node_modules. Package bins already in node_modules run: npx <bin>.
`;

export type NpmCommandOptions = {
  mountPoint: string;
  /** Command names the shell has (a script's first word that is one of them is not a package bin). */
  shellCommands: () => readonly string[];
  /** The names whose output may be shown live (the shell's); a lone one of them in a script keeps the live sink. */
  liveCommands: () => readonly string[];
  /** The shell's live sinks: a lone `npm test` shows its banner and each stage's output as they come. */
  live?: LiveOutputs;
  /** The shell's view of the workspace (read-only in Plan and Review: installs are refused there). */
  wsfs: WorkspaceFs;
  readOnly: boolean;
  /** Journal origin of what an install writes. */
  origin: string;
  /** The registry, when the user has allowed package downloads; undefined: off. */
  packages?: () => RegistryAccess | undefined;
};

/** Where a command's output goes: the live sink when it has one (in order with what its scripts stream), else its result. */
class Output {
  stdout = "";
  stderr = "";
  constructor(private readonly sink: LiveSink | undefined) {}
  write(stream: "stdout" | "stderr", text: string): void {
    if (!text) return;
    if (this.sink) this.sink(stream, text);
    else this[stream] += text;
  }
  result(exitCode: number): Result {
    return { stdout: this.stdout, stderr: this.stderr, exitCode };
  }
}

export function createNpmCommands(jb: Pick<typeof import("just-bash"), "defineCommand">, opts: NpmCommandOptions): Command[] {
  return [jb.defineCommand("npm", (args, ctx) => npm(args, ctx, opts)), jb.defineCommand("npx", (args, ctx) => npx(args, ctx, opts))];
}

async function npm(argv: string[], ctx: ResolvedCommandContext, opts: NpmCommandOptions): Promise<Result> {
  const silent = argv.some((a) => a === "-s" || a === "--silent" || a === "--loglevel=silent");
  const args = argv.filter((a) => a !== "-s" && a !== "--silent" && a !== "--loglevel=silent");
  const [sub, ...rest] = args;
  if (sub === undefined || sub === "help" || sub === "-h" || sub === "--help") return { stdout: NPM_USAGE, stderr: "", exitCode: sub === undefined ? 1 : 0 };
  if (sub === "-v" || sub === "--version" || sub === "version") return { stdout: `${NPM_VERSION}\n`, stderr: "", exitCode: 0 };
  switch (sub) {
    case "test":
    case "t":
    case "tst":
      return runScript("test", rest, ctx, opts, silent);
    case "start":
    case "stop":
    case "restart":
      return runScript(sub, rest, ctx, opts, silent);
    case "run":
    case "run-script":
    case "rum":
    case "urn": {
      const [name, ...scriptArgs] = rest.filter((a, i) => !(i === 0 && a.startsWith("-") && a !== "--"));
      if (name === undefined) return listScripts(ctx, opts);
      return runScript(name, scriptArgs, ctx, opts, silent);
    }
    case "install":
    case "i":
    case "in":
    case "isntall":
    case "add":
    case "ci":
    case "clean-install":
    case "update":
    case "up":
    case "upgrade":
    case "uninstall":
    case "remove":
    case "rm":
    case "un":
      return install(sub, rest, ctx, opts);
    case "exec":
    case "x":
      return npx(rest, ctx, opts);
    default:
      return { stdout: "", stderr: `npm ${sub}: not available in the tab.\n\n${NPM_USAGE}`, exitCode: 1 };
  }
}

/** The package the command runs in: the nearest package.json from the working directory up, inside the workspace. */
async function findPackage(ctx: ResolvedCommandContext, mountPoint: string): Promise<{ root: string; pkg: PackageJson } | { error: string }> {
  let dir = toWorkspacePath(mountPoint, ctx.cwd, ctx.cwd) !== null ? ctx.cwd : mountPoint;
  for (;;) {
    const file = `${dir === "/" ? "" : dir}/package.json`;
    if (await ctx.fs.exists(file)) {
      try {
        return { root: dir, pkg: JSON.parse(await ctx.fs.readFile(file)) as PackageJson };
      } catch (e) {
        return { error: `npm error code EJSONPARSE\nnpm error JSON.parse Invalid package.json: ${file}: ${(e as Error).message}\n` };
      }
    }
    if (dir === mountPoint || dir === "/" || !dir.startsWith(mountPoint)) break;
    dir = dir.slice(0, dir.lastIndexOf("/")) || "/";
  }
  return { error: `npm error code ENOENT\nnpm error enoent Could not read package.json: no package.json in ${ctx.cwd} or above it in the workspace.\n` };
}

async function listScripts(ctx: ResolvedCommandContext, opts: NpmCommandOptions): Promise<Result> {
  const found = await findPackage(ctx, opts.mountPoint);
  if ("error" in found) return { stdout: "", stderr: found.error, exitCode: 254 };
  const scripts = Object.entries(found.pkg.scripts ?? {});
  if (scripts.length === 0) return { stdout: "", stderr: "", exitCode: 0 };
  const lifecycle = new Set(["test", "start", "stop", "restart"]);
  const block = (list: [string, string][]) => list.map(([k, v]) => `  ${k}\n    ${v}\n`).join("");
  const own = scripts.filter(([k]) => lifecycle.has(k));
  const others = scripts.filter(([k]) => !lifecycle.has(k));
  const id = `${found.pkg.name ?? "(unnamed)"}@${found.pkg.version ?? ""}`;
  let out = "";
  if (own.length) out += `Lifecycle scripts included in ${id}:\n${block(own)}`;
  if (others.length) out += `${own.length ? "\n" : ""}available via \`npm run-script\`:\n${block(others)}`;
  return { stdout: out, stderr: "", exitCode: 0 };
}

async function runScript(name: string, argv: string[], ctx: ResolvedCommandContext, opts: NpmCommandOptions, silent: boolean): Promise<Result> {
  const found = await findPackage(ctx, opts.mountPoint);
  if ("error" in found) return { stdout: "", stderr: found.error, exitCode: 254 };
  const { root, pkg } = found;
  const scripts = pkg.scripts ?? {};
  const extra = (argv[0] === "--" ? argv.slice(1) : argv).map(shellQuote).join(" ");
  if (scripts[name] === undefined) {
    const known = Object.keys(scripts);
    const hint = known.length ? `\nnpm error\nnpm error Did you mean one of these?\n${known.map((k) => `npm error   npm run ${k}`).join("\n")}` : "";
    return { stdout: "", stderr: `npm error Missing script: "${name}"${hint}\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n`, exitCode: 1 };
  }
  const id = `${pkg.name ?? ""}${pkg.version ? `@${pkg.version}` : ""}`;
  const stages = [`pre${name}`, name, `post${name}`].filter((s) => scripts[s] !== undefined);
  const out = new Output(programEnvironment(ctx, opts.live).live);
  for (const stage of stages) {
    const line = stage === name && extra ? `${scripts[stage]} ${extra}` : scripts[stage]!;
    if (!silent) out.write("stdout", `\n> ${id ? `${id} ` : ""}${stage}\n> ${line}\n\n`);
    const r = await runLine(line, root, ctx, opts, {
      npm_lifecycle_event: stage,
      npm_lifecycle_script: line,
      npm_package_name: pkg.name ?? "",
      npm_package_version: pkg.version ?? "",
      npm_command: name === "test" || name === "start" || name === "stop" || name === "restart" ? name : "run-script",
      INIT_CWD: ctx.cwd,
    });
    out.write("stdout", r.stdout);
    out.write("stderr", r.stderr);
    if (r.exitCode !== 0) {
      if (!silent) out.write("stderr", `npm error Lifecycle script \`${stage}\` failed with error:\nnpm error code ${r.exitCode}\nnpm error path ${root}\nnpm error command failed\nnpm error command sh -c ${line}\n`);
      return out.result(r.exitCode);
    }
  }
  return out.result(0);
}

async function install(sub: string, argv: string[], ctx: ResolvedCommandContext, opts: NpmCommandOptions): Promise<Result> {
  if (opts.readOnly) return { stdout: "", stderr: `npm ${sub}: this mode's workspace is read-only; installing changes it (switch to Agent mode, or run it in the terminal)\n`, exitCode: 1 };
  const access = opts.packages?.();
  if (!access) {
    return {
      stdout: "",
      stderr: `npm ${sub}: package downloads are off. Allow them under Models → Packages (they come from the npm registry over the network); packages already in node_modules work without it.\n`,
      exitCode: 1,
    };
  }
  const dev = argv.some((a) => a === "-D" || a === "--save-dev" || a === "--dev");
  const names = argv.filter((a) => !a.startsWith("-"));
  const found = await findPackage(ctx, opts.mountPoint);
  const here = toWorkspacePath(opts.mountPoint, ctx.cwd, ctx.cwd) !== null ? ctx.cwd : opts.mountPoint;
  const rootAbs = "error" in found ? here : found.root;
  const root = toWorkspacePath(opts.mountPoint, rootAbs) ?? "";
  const removing = sub === "uninstall" || sub === "remove" || sub === "rm" || sub === "un";
  if (removing && names.length === 0) return { stdout: "", stderr: `npm ${sub}: name the packages to remove\n`, exitCode: 1 };
  if ((sub === "ci" || sub === "clean-install") && names.length) return { stdout: "", stderr: "npm ci installs the lockfile as it is: it takes no package names\n", exitCode: 1 };
  const out = new Output(programEnvironment(ctx, opts.live).live);
  const log = (line: string) => out.write(line.startsWith("npm warn") ? "stderr" : "stdout", line.endsWith("\n") ? line : `${line}\n`);
  const { installPackages } = await import("../../packages/install");
  try {
    await installPackages({
      wsfs: opts.wsfs,
      root,
      access,
      origin: opts.origin,
      log,
      signal: ctx.signal,
      ...(removing ? { remove: names } : names.length && sub !== "update" && sub !== "up" && sub !== "upgrade" ? { add: { specs: names, dev } } : {}),
      ...(sub === "update" || sub === "up" || sub === "upgrade" ? { fresh: true } : {}),
      ...(sub === "ci" || sub === "clean-install" ? { frozen: true } : {}),
    });
  } catch (e) {
    out.write("stderr", `npm error ${(e as Error).message}\n`);
    return out.result(1);
  }
  return out.result(0);
}

async function npx(argv: string[], ctx: ResolvedCommandContext, opts: NpmCommandOptions): Promise<Result> {
  const args = [...argv];
  while (args[0] === "-y" || args[0] === "--yes" || args[0] === "--no-install" || args[0] === "--no") args.shift();
  if (args[0] === "--") args.shift();
  const [bin, ...rest] = args;
  if (!bin) return { stdout: "", stderr: "npx: name a package bin to run (npx <bin> [args]), from the workspace's node_modules\n", exitCode: 1 };
  const found = await findPackage(ctx, opts.mountPoint);
  const root = "error" in found ? (toWorkspacePath(opts.mountPoint, ctx.cwd, ctx.cwd) !== null ? ctx.cwd : opts.mountPoint) : found.root;
  const name = bin.replace(/(.)@[^/]*$/, "$1"); // "mocha@10" → "mocha", "@scope/pkg@1" → "@scope/pkg"
  const line = [name, ...rest].map(shellQuote).join(" ");
  const resolved = await resolveBin(name, root, ctx);
  if (!resolved && !NODE_ALIASES.has(name) && !opts.shellCommands().includes(name)) {
    return { stdout: "", stderr: `npx: "${name}" is not a bin of any package in node_modules, and downloading packages is not available in the tab.\n`, exitCode: 1 };
  }
  return runLine(line, ctx.cwd, ctx, opts, {});
}

/**
 * Run one script line through the shell, in `cwd`, with npm's environment. Its first word, when
 * it is no shell command, is looked up among the packages' bins. The live output sink goes along
 * only when the line is one lone command that can use it (a pipe must get the output, not the terminal).
 */
async function runLine(line: string, cwd: string, ctx: ResolvedCommandContext, opts: NpmCommandOptions, env: Record<string, string>): Promise<Result> {
  if (!ctx.exec) return { stdout: "", stderr: "npm: this shell cannot run scripts\n", exitCode: 1 };
  const rewritten = await rewriteBin(line, cwd, ctx, opts);
  const keepLive = isLoneCommand(rewritten, opts.liveCommands());
  // Exported, so that programs see them (an exec's env is the shell's, not the programs').
  const exports = Object.entries(env).map(([k, v]) => `${k}=${shellQuote(v)}`);
  const script = exports.length ? `export ${exports.join(" ")}; ${rewritten}` : rewritten;
  const r = await ctx.exec(script, { cwd, env: keepLive ? {} : { [LIVE_OUTPUT_VAR]: "" }, signal: ctx.signal });
  return { stdout: r.stdout, stderr: r.stderr, exitCode: r.exitCode };
}

/** "mocha test/" → "node /workspace/node_modules/mocha/bin/mocha.js test/"; "tsx a.ts" → "node a.ts". */
async function rewriteBin(line: string, cwd: string, ctx: ResolvedCommandContext, opts: NpmCommandOptions): Promise<string> {
  const m = /^(\s*)([A-Za-z0-9@][A-Za-z0-9_.@/-]*)(?=\s|$)/.exec(line);
  if (!m) return line;
  const word = m[2]!;
  if (opts.shellCommands().includes(word) && !NODE_ALIASES.has(word)) return line;
  const rest = line.slice(m[0].length);
  if (NODE_ALIASES.has(word)) return `${m[1]}node${rest}`;
  const file = await resolveBin(word, cwd, ctx);
  return file ? `${m[1]}node ${shellQuote(file)}${rest}` : line;
}

/** The file a package bin runs: a package of that name with a bin, else any package in node_modules whose bin map names it. */
async function resolveBin(name: string, fromDir: string, ctx: ResolvedCommandContext): Promise<string | undefined> {
  for (let dir = fromDir; ; dir = dir.slice(0, dir.lastIndexOf("/")) || "/") {
    const modules = `${dir === "/" ? "" : dir}/node_modules`;
    if (await ctx.fs.exists(modules)) {
      const direct = await binOf(`${modules}/${name}`, name, ctx);
      if (direct) return direct;
      for (const entry of await ctx.fs.readdir(modules).catch(() => [] as string[])) {
        const pkgs = entry.startsWith("@") ? (await ctx.fs.readdir(`${modules}/${entry}`).catch(() => [] as string[])).map((e) => `${entry}/${e}`) : [entry];
        for (const p of pkgs) {
          if (p.startsWith(".")) continue;
          const file = await binOf(`${modules}/${p}`, name, ctx);
          if (file) return file;
        }
      }
    }
    if (dir === "/" || dir === "") return undefined;
  }
}

async function binOf(pkgDir: string, name: string, ctx: ResolvedCommandContext): Promise<string | undefined> {
  let pkg: PackageJson;
  try {
    pkg = JSON.parse(await ctx.fs.readFile(`${pkgDir}/package.json`)) as PackageJson;
  } catch {
    return undefined;
  }
  const bin = pkg.bin;
  const own = (pkg.name ?? "").split("/").pop();
  const rel = typeof bin === "string" ? (own === name || pkgDir.endsWith(`/${name}`) ? bin : undefined) : bin?.[name];
  return rel ? resolveShellPath(pkgDir, rel) : undefined;
}

/** Quote a word for the shell when it needs it. */
function shellQuote(s: string): string {
  return /^[A-Za-z0-9_./=:@%+,-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`;
}
