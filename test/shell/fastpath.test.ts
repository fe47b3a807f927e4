/**
 * The grep/find fast paths must print exactly what just-bash's own grep/find print: each
 * command runs through our shell and through a plain just-bash Bash over the same workspace
 * adapter (no custom commands), and stdout, stderr and exit code must agree.
 */
import fs from "node:fs";
import { Bash, InMemoryFs, MountableFs } from "just-bash";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WorkspaceShellFs } from "../../lib/shell";
import { parseFastFind } from "../../lib/shell/fastfind";
import { parseFastGrep } from "../../lib/shell/fastgrep";
import { tempWorkspace, type TempWorkspace } from "./helpers";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

let ws: TempWorkspace;
let plain: Bash;

beforeAll(async () => {
  ws = await tempWorkspace({
    "a.txt": "alpha TODO\nbeta\nTodo lower\n",
    "B.ts": "// TODO: b\nconst x = 1;\n",
    "_x.ts": "nothing here\n",
    "src/one.ts": "// TODO one\n// todo two\nexport const one = 1; // TODO three\n",
    "src/deep/two.ts": "no match\n",
    "src/deep/three.md": "TODO in markdown\n",
    ".hidden/h.ts": "// TODO hidden\n",
    "src/.dot.ts": "// TODO dotfile\n",
    "no-newline.txt": "last line TODO",
    "crlf.txt": "line TODO\r\nnext\r\n",
    "unicode.txt": "héllo TODO wörld\n",
    "empty.txt": "",
    "dir with space/f.txt": "TODO spaced\n",
  });
  fs.mkdirSync(`${ws.dir}/emptydir`);
  fs.symlinkSync("a.txt", `${ws.dir}/link.txt`);
  const adapter = new WorkspaceShellFs({ wsfs: ws.wsfs, mountPoint: "/workspace" });
  plain = new Bash({
    fs: new MountableFs({ base: new InMemoryFs(), mounts: [{ mountPoint: "/workspace", filesystem: adapter }] }),
    cwd: "/workspace",
    defenseInDepth: testDefenseInDepth,
  });
});
afterAll(() => ws.cleanup());

const GREPS = [
  "grep -rn TODO .",
  "grep -r TODO .",
  "grep -rni todo .",
  "grep -rl TODO .",
  "grep -rc TODO .",
  "grep -rh TODO src",
  "grep -n TODO a.txt",
  "grep TODO a.txt B.ts",
  "grep -c TODO a.txt B.ts _x.ts",
  "grep -l TODO a.txt B.ts _x.ts",
  "grep TODO nope.txt a.txt",
  "grep TODO src",
  "grep -r TODO src nope",
  "grep -rn TODO src/deep",
  "grep -F -rn TODO .",
  "grep -rn -e TODO .",
  "grep -rn NOTHINGMATCHES .",
  "grep -rn 'héllo' .",
  "grep -rn TODO /workspace/src",
  "grep -Rn TODO 'dir with space'",
  "grep -rn TODO link.txt",
  "grep -rn -- TODO src",
];

const FINDS = [
  'find . -name "*.ts"',
  "find .",
  "find src -type f",
  "find . -type d",
  "find . -iname 'b*'",
  'find /workspace/src -name "*.ts"',
  "find . -maxdepth 1 -name '*.txt'",
  "find src/deep",
  "find a.txt",
  "find . -name '*.ts' -type f",
  "find . -type f -name '[ab]*'",
  "find src . -maxdepth 1",
  "find . -name 'f?txt'",
  "find . -name '*.ts' -print",
  "find . -type f",
  "find . -name 'link*' -type f",
  "find . -name 'link*' -type d",
  "find link.txt -type f",
];

describe("fast grep/find agree with just-bash's grep/find", () => {
  for (const cmd of [...GREPS, ...FINDS]) {
    it(cmd, async () => {
      const ours = await ws.shell.exec(cmd);
      const theirs = await plain.exec(cmd);
      expect({ stdout: ours.stdout, stderr: ours.stderr, exitCode: ours.exitCode }).toEqual({
        stdout: theirs.stdout,
        stderr: theirs.stderr,
        exitCode: theirs.exitCode,
      });
    });
  }

  it("takes the fast paths for the common forms only", () => {
    expect(parseFastGrep(["-rn", "TODO", "."])).not.toBeNull();
    expect(parseFastGrep(["-rn", "TO.O", "."])).toBeNull();
    expect(parseFastGrep(["-v", "TODO", "."])).toBeNull();
    expect(parseFastGrep(["TODO"])).toBeNull();
    expect(parseFastFind([".", "-name", "*.ts"])).not.toBeNull();
    expect(parseFastFind([".", "-newer", "a"])).toBeNull();
    expect(parseFastFind([".", "-name", "*.ts", "-delete"])).toBeNull();
  });

  it("sees writes made earlier in the same command line", async () => {
    const r = await ws.shell.exec("echo 'TODO fresh' > fresh.txt && grep -rn TODO fresh.txt && rm fresh.txt && find . -name fresh.txt");
    expect(r.stdout).toBe("fresh.txt:1:TODO fresh\n");
  });
});
