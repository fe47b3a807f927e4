/**
 * The Plan-mode command guard over the corpus (guard-corpus.ts): every write form flagged, read-only
 * inspection commands allowed. Nothing here runs a command: the guard only parses.
 */
import * as nodeJustBash from "just-bash";
import * as browserJustBash from "just-bash/browser";
import { beforeAll, describe, expect, it } from "vitest";
import {
  createCommandGuard,
  findFileEditingCommand,
  GUARD_LOADING_REASON,
  isCommandGuardReady,
  prepareCommandGuard,
  type CommandGuard,
  type JustBashModuleLike,
} from "../../lib/modes/command-guard";
import { allWrites, READ_CORPUS, WRITE_CORPUS } from "./guard-corpus";

let nodeGuard: CommandGuard;
let browserGuard: CommandGuard;

beforeAll(() => {
  nodeGuard = createCommandGuard(nodeJustBash as unknown as JustBashModuleLike);
  browserGuard = createCommandGuard(browserJustBash as unknown as JustBashModuleLike);
});

describe("guard corpus", () => {
  it("is large enough: ≥ 150 commands, ≥ 40 reads", () => {
    expect(allWrites().length + READ_CORPUS.length).toBeGreaterThanOrEqual(150);
    expect(READ_CORPUS.length).toBeGreaterThanOrEqual(40);
    expect(new Set(allWrites()).size).toBe(allWrites().length);
    expect(new Set(READ_CORPUS).size).toBe(READ_CORPUS.length);
  });

  for (const [category, commands] of Object.entries(WRITE_CORPUS)) {
    it(`flags every write: ${category} (${commands.length})`, () => {
      const missed = commands.filter((c) => nodeGuard(c) === undefined);
      expect(missed).toEqual([]);
    });
  }

  it("passes read-only inspection commands (false positives ≤ 5 %)", () => {
    const flagged = READ_CORPUS.map((c) => ({ c, f: nodeGuard(c) })).filter((x) => x.f !== undefined);
    expect(flagged.length / READ_CORPUS.length).toBeLessThanOrEqual(0.05);
    // The corpus is curated: in practice none is flagged.
    expect(flagged.map((x) => `${x.c} → ${x.f!.reason}`)).toEqual([]);
  });

  it("the browser bundle (no `parse` export: a transform plugin captures the AST) gives the same verdicts", () => {
    expect((browserJustBash as { parse?: unknown }).parse).toBeUndefined();
    for (const c of [...allWrites(), ...READ_CORPUS]) {
      expect(browserGuard(c) === undefined, c).toBe(nodeGuard(c) === undefined);
    }
  });
});

describe("findings", () => {
  it("names the offending sub-command and says why in a short sentence", () => {
    expect(nodeGuard("ls && rm -rf src")).toEqual({ command: "rm -rf src", reason: "rm deletes files" });
    expect(nodeGuard("echo hi > notes.txt")).toEqual({ command: "echo hi > notes.txt", reason: "output redirection to notes.txt" });
    expect(nodeGuard("echo $(( $(rm a) + 1 ))")).toEqual({ command: "rm a", reason: "rm deletes files" });
    expect(nodeGuard("bash -c 'cat x; sed -i s/a/b/ f'")?.reason).toBe("sed -i edits files in place");
    expect(nodeGuard("git -C . commit -m x")?.reason).toBe("git commit records a commit");
    expect(nodeGuard("git -c core.pager=less log")?.reason).toMatch(/core\.pager can run commands/);
    expect(nodeGuard("$CMD a")?.reason).toBe("the command name is computed at run time");
    expect(nodeGuard("frobnicate --all")?.reason).toBe("frobnicate is not a known read-only command");
    expect(nodeGuard("find . -delete")?.reason).toBe("find -delete deletes files");
    expect(nodeGuard("find . -exec rm {} +")?.reason).toBe("find -exec: rm deletes files");
    expect(nodeGuard("npm install zod")?.reason).toBe("npm install installs or removes packages");
    // python3 and node run in the tab on the read-only view (a write fails there), so only installs are refused early.
    expect(nodeGuard("python3 -c 'print(1)'")).toBeUndefined();
    expect(nodeGuard("python3 script.py data.csv")).toBeUndefined();
    expect(nodeGuard("node --test")).toBeUndefined();
    expect(nodeGuard("node -e \"require('fs').writeFileSync('n.txt','x')\"")).toBeUndefined();
    expect(nodeGuard("deno run x.ts")?.reason).toBe("deno runs a program that can change files");
    expect(nodeGuard("python3 -m pip install requests")?.reason).toBe("python3 -m pip installs packages or creates environments");
  });

  it("gives the true reason: -I is not -i, and read-only package subcommands have writing forms", () => {
    expect(nodeGuard("perl -Ilib script.pl")?.reason).toBe("perl runs a program that can change files");
    expect(nodeGuard("perl -MList::Util=sum -e 'print sum(1)'")?.reason).toBe("perl runs inline code that can change files");
    expect(nodeGuard("perl -Ilib -i -pe 's/a/b/' a.txt")?.reason).toBe("perl -i edits files in place");
    expect(nodeGuard("perl -lpi -e 's/a/b/' a.txt")?.reason).toBe("perl -i edits files in place");
    expect(nodeGuard("perl -i.bak -pe 's/a/b/' a.txt")?.reason).toBe("perl -i edits files in place");
    expect(nodeGuard("npm version patch")?.reason).toBe("npm version changes packages or runs their scripts");
    expect(nodeGuard("npm pkg set name=x")?.reason).toBe("npm pkg set changes files or settings");
    expect(nodeGuard("npm audit fix")?.reason).toBe("npm audit fix changes files or settings");
    expect(nodeGuard("npm ci")?.reason).toBe("npm ci installs or removes packages");
    expect(nodeGuard("npm --prefix ls install")?.reason).toBe("npm installs packages or runs their scripts");
    expect(nodeGuard("git switch main")?.reason).toBe("git switch changes files");
    expect(nodeGuard("git switch --help")).toBeUndefined();
  });

  it("refuses what the line-trimmed parse (bash -c) would run even when the raw parse hides it", () => {
    const hidden = "cat <<\\EOF\n  EOF\nrm -rf .\nEOF";
    expect(nodeGuard(hidden)).toEqual({ command: "rm -rf .", reason: "rm deletes files" });
  });

  it("fails closed on a parse error", () => {
    expect(nodeGuard("echo 'open")?.reason).toMatch(/^the command could not be parsed/);
    expect(browserGuard("echo 'open")?.reason).toMatch(/^the command could not be parsed/);
  });

  it("allows an empty command and stays fast on a long read-only pipeline", () => {
    expect(nodeGuard("")).toBeUndefined();
    expect(nodeGuard("  \n ")).toBeUndefined();
    const long = Array.from({ length: 200 }, (_, i) => `grep -n x${i} a.txt`).join(" | ");
    const t = performance.now();
    expect(nodeGuard(long)).toBeUndefined();
    expect(performance.now() - t).toBeLessThan(2000);
  });

  it("stops following nested bash -c at a fixed depth", () => {
    const simpleNest = "bash -c \"bash -c 'ls'\"";
    expect(nodeGuard(simpleNest)).toBeUndefined();
    expect(nodeGuard(`eval ${shellQuote("eval 'ls -la'")}`)).toBeUndefined();
    const deep = "eval ".repeat(12) + "ls";
    expect(nodeGuard(deep)?.reason).toBe("commands are nested too deeply to check");
  });
});

describe("findFileEditingCommand (the shared instance)", () => {
  it("refuses everything until the parser is ready, then checks", async () => {
    if (!isCommandGuardReady()) expect(findFileEditingCommand("ls")).toEqual({ command: "ls", reason: GUARD_LOADING_REASON });
    await prepareCommandGuard();
    expect(isCommandGuardReady()).toBe(true);
    expect(findFileEditingCommand("ls -la")).toBeUndefined();
    expect(findFileEditingCommand("rm -rf .")?.reason).toBe("rm deletes files");
    await prepareCommandGuard(); // idempotent
  });
});

function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
