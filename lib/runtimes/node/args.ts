/**
 * node's command line (`node [options] [script | -e code | -p expr | -] [args]`), parsed as the
 * real binary does: options come before the program, and everything after the script (or
 * after -e's code) is the program's own argv.
 */
export type ParsedNodeArgs =
  | { kind: "run"; target: { kind: "eval"; code: string; print: boolean } | { kind: "script"; path: string } | { kind: "stdin" }; args: string[]; execArgv: string[]; test: false }
  | { kind: "test"; files: string[]; execArgv: string[] }
  | { kind: "version" }
  | { kind: "help" }
  | { kind: "usage-error"; message: string };

/** Options that change nothing here but are common in scripts and package.json lines. */
const IGNORED = /^--(no-warnings|no-deprecation|enable-source-maps|experimental-[\w-]+|no-experimental-[\w-]+|trace-warnings|trace-uncaught|max-old-space-size=\d+|stack-trace-limit=\d+|preserve-symlinks|harmony[\w-]*|unhandled-rejections=[\w-]+|title=.*|input-type=(module|commonjs)|test-reporter=[\w-]+|env-file=.*)$/;

export function parseNodeArgs(argv: string[]): ParsedNodeArgs {
  const execArgv: string[] = [];
  let test = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "-v" || a === "--version") return { kind: "version" };
    if (a === "-h" || a === "--help") return { kind: "help" };
    if (a === "-e" || a === "--eval" || a === "-p" || a === "--print" || a === "-pe") {
      const code = argv[i + 1];
      if (code === undefined) return { kind: "usage-error", message: `node: ${a} requires an argument` };
      execArgv.push(a, code);
      return { kind: "run", target: { kind: "eval", code, print: a !== "-e" && a !== "--eval" }, args: argv.slice(i + 2), execArgv, test: false };
    }
    if (a.startsWith("--eval=") || a.startsWith("--print=")) {
      execArgv.push(a);
      return { kind: "run", target: { kind: "eval", code: a.slice(a.indexOf("=") + 1), print: a.startsWith("--print") }, args: argv.slice(i + 1), execArgv, test: false };
    }
    if (a === "--test") {
      test = true;
      execArgv.push(a);
      continue;
    }
    if (a === "-") return { kind: "run", target: { kind: "stdin" }, args: argv.slice(i + 1), execArgv, test: false };
    if (a === "--") {
      const rest = argv.slice(i + 1);
      if (test) return { kind: "test", files: rest, execArgv };
      if (rest.length === 0) return { kind: "run", target: { kind: "stdin" }, args: [], execArgv, test: false };
      return { kind: "run", target: { kind: "script", path: rest[0]! }, args: rest.slice(1), execArgv, test: false };
    }
    if (IGNORED.test(a)) {
      execArgv.push(a);
      continue;
    }
    if (a === "-i" || a === "--interactive") return { kind: "usage-error", message: "node: the interactive prompt (REPL) is not available in the tab; run a file, -e 'code', or pipe a program in" };
    if (a === "-r" || a === "--require" || a === "--import" || a === "--loader") return { kind: "usage-error", message: `node: ${a} is not supported by this runtime` };
    if (a.startsWith("-")) return { kind: "usage-error", message: `node: bad option: ${a}` };
    if (test) return { kind: "test", files: argv.slice(i), execArgv };
    return { kind: "run", target: { kind: "script", path: a }, args: argv.slice(i + 1), execArgv, test: false };
  }
  if (test) return { kind: "test", files: [], execArgv };
  return { kind: "run", target: { kind: "stdin" }, args: [], execArgv, test: false };
}

export const NODE_USAGE = `Usage: node [options] [ script.js | script.ts ] [arguments]
       node [options] -e "script" [arguments]
       node [options] -p "expression" [arguments]
       node --test [files...]

Options:
  -e, --eval script      evaluate script
  -p, --print expr       evaluate expression and print the result
  -v, --version          print the version
  --test                 run tests with node:test (files: *.test.*, test/**, …)
  -                      script read from stdin (default when stdin is piped)

Runs JavaScript and TypeScript in a Web Worker in this tab, on the workspace's files
(ES modules and CommonJS; .ts/.tsx/.jsx compiled on the fly). Built-ins: fs, path, url, util,
events, assert, buffer, process, timers, os, crypto, stream, readline and more.
Not available: child_process, listening on a port, native addons, the interactive prompt.
`;
