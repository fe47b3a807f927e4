/** CPython's command line as its launcher reads it. */
import { describe, expect, it } from "vitest";
import { parsePythonArgs } from "../../lib/runtimes/python/args";

describe("parsePythonArgs", () => {
  it("stops options at -c, -m, a file or -, and hands the rest to the program", () => {
    expect(parsePythonArgs(["-c", "print(1)", "-m", "x"])).toMatchObject({ kind: "run", target: { kind: "code", code: "print(1)" }, args: ["-m", "x"] });
    expect(parsePythonArgs(["-cprint(2)", "a"])).toMatchObject({ target: { kind: "code", code: "print(2)" }, args: ["a"] });
    expect(parsePythonArgs(["-u", "-B", "-m", "json.tool", "--sort-keys"])).toMatchObject({ target: { kind: "module", module: "json.tool" }, args: ["--sort-keys"] });
    expect(parsePythonArgs(["-uBm", "unittest", "-v"])).toMatchObject({ target: { kind: "module", module: "unittest" }, args: ["-v"] });
    expect(parsePythonArgs(["-W", "ignore", "app.py", "-c", "x"])).toMatchObject({ target: { kind: "script", path: "app.py" }, args: ["-c", "x"] });
    expect(parsePythonArgs(["-Wignore", "-X", "utf8", "-", "a"])).toMatchObject({ target: { kind: "stdin" }, args: ["a"] });
    expect(parsePythonArgs(["-I", "x.py"])).toMatchObject({ ignoreEnv: true });
    expect(parsePythonArgs([])).toMatchObject({ kind: "run", target: { kind: "stdin" } });
  });

  it("answers --version and --help, and refuses an unknown option or a missing -c argument", () => {
    expect(parsePythonArgs(["--version"]).kind).toBe("version");
    expect(parsePythonArgs(["-V"]).kind).toBe("version");
    expect(parsePythonArgs(["-h"]).kind).toBe("help");
    expect(parsePythonArgs(["-Z"])).toEqual({ kind: "usage-error", message: "Unknown option: -Z" });
    expect(parsePythonArgs(["-c"])).toEqual({ kind: "usage-error", message: "Argument expected for the -c option" });
  });
});
