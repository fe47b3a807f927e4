/**
 * CPython's command line (`python3 [options] (-c cmd | -m mod | file | -) [args]`), parsed the
 * way the real launcher does: options stop at the first of -c, -m, a file name or `-`, and
 * everything after it is the program's own argv.
 */

export type ParsedPythonArgs =
  | { kind: "run"; target: { kind: "code"; code: string } | { kind: "module"; module: string } | { kind: "script"; path: string } | { kind: "stdin" }; args: string[]; ignoreEnv: boolean }
  | { kind: "version" }
  | { kind: "help" }
  | { kind: "usage-error"; message: string };

/** Options that take a value (attached, `-Wignore`, or as the next argument). */
const WITH_VALUE = new Set(["W", "X"]);
/** Options without a value this runtime accepts (most have no effect in the tab). */
const FLAGS = new Set(["b", "B", "d", "E", "i", "I", "O", "P", "q", "R", "s", "S", "u", "v", "x"]);

export function parsePythonArgs(argv: string[]): ParsedPythonArgs {
  let ignoreEnv = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--version" || a === "-V" || a === "-VV") return { kind: "version" };
    if (a === "--help" || a === "-h" || a === "-?" || a === "--help-all") return { kind: "help" };
    if (a === "-") return { kind: "run", target: { kind: "stdin" }, args: argv.slice(i + 1), ignoreEnv };
    if (a === "--check-hash-based-pycs") {
      i++;
      continue;
    }
    if (a.startsWith("--")) return { kind: "usage-error", message: `unknown option ${a}` };
    if (!a.startsWith("-")) return { kind: "run", target: { kind: "script", path: a }, args: argv.slice(i + 1), ignoreEnv };
    // A cluster of one-letter options, as in `-uB` or `-c'print(1)'`.
    for (let j = 1; j < a.length; j++) {
      const c = a[j]!;
      if (c === "c" || c === "m") {
        const rest = a.slice(j + 1);
        const value = rest !== "" ? rest : argv[i + 1];
        if (value === undefined) return { kind: "usage-error", message: `Argument expected for the -${c} option` };
        const after = argv.slice(rest !== "" ? i + 1 : i + 2);
        return c === "c"
          ? { kind: "run", target: { kind: "code", code: value }, args: after, ignoreEnv }
          : { kind: "run", target: { kind: "module", module: value }, args: after, ignoreEnv };
      }
      if (c === "V") return { kind: "version" };
      if (c === "h") return { kind: "help" };
      if (WITH_VALUE.has(c)) {
        if (j + 1 === a.length) i++; // the value is the next argument
        break;
      }
      if (!FLAGS.has(c)) return { kind: "usage-error", message: `Unknown option: -${c}` };
      if (c === "E" || c === "I") ignoreEnv = true;
    }
  }
  return { kind: "run", target: { kind: "stdin" }, args: [], ignoreEnv };
}

export const PYTHON_USAGE = `usage: python3 [option] ... [-c cmd | -m mod | file | -] [arg] ...
Options (CPython's; those that change nothing in the tab are accepted and ignored):
-c cmd : program passed in as string (terminates option list)
-m mod : run library module as a script (terminates option list)
-E     : ignore PYTHON* environment variables
-I     : isolate Python from the user's environment
-u     : unbuffered output (output is always written as it is produced here)
-V     : print the Python version number and exit (also --version)
file   : program read from script file
-      : program read from stdin (default when no program is given)
arg ...: arguments passed to program in sys.argv[1:]

Runs CPython (Pyodide, WebAssembly) in this tab, on the workspace's files.
Not available: pip install (package downloads are off), listening on a port (http.server).
`;
