/** node's command line: options before the program, the program's own argv after it. */
import { describe, expect, it } from "vitest";
import { parseNodeArgs } from "../../lib/runtimes/node/args";

describe("parseNodeArgs", () => {
  it("takes the script and leaves the rest to the program, options included", () => {
    expect(parseNodeArgs(["--no-warnings", "app.js", "-e", "--flag"])).toEqual({ kind: "run", target: { kind: "script", path: "app.js" }, args: ["-e", "--flag"], execArgv: ["--no-warnings"], test: false });
  });
  it("-e and -p take the code and leave the rest as argv; -v and -h answer", () => {
    expect(parseNodeArgs(["-e", "1", "a"])).toMatchObject({ target: { kind: "eval", code: "1", print: false }, args: ["a"] });
    expect(parseNodeArgs(["-p", "2"])).toMatchObject({ target: { kind: "eval", code: "2", print: true } });
    expect(parseNodeArgs(["--eval=3"])).toMatchObject({ target: { kind: "eval", code: "3", print: false } });
    expect(parseNodeArgs(["-v"])).toEqual({ kind: "version" });
    expect(parseNodeArgs(["--help"])).toEqual({ kind: "help" });
  });
  it("no program means stdin; --test takes files; unknown options and the REPL are refused", () => {
    expect(parseNodeArgs([])).toMatchObject({ kind: "run", target: { kind: "stdin" } });
    expect(parseNodeArgs(["--test", "a.test.js", "b"])).toEqual({ kind: "test", files: ["a.test.js", "b"], execArgv: ["--test"] });
    expect(parseNodeArgs(["--bogus"])).toEqual({ kind: "usage-error", message: "node: bad option: --bogus" });
    expect(parseNodeArgs(["-i"])).toMatchObject({ kind: "usage-error" });
    expect(parseNodeArgs(["-e"])).toMatchObject({ kind: "usage-error" });
  });
});
