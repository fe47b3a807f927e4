/**
 * Symbol mentions (`@#name`): parsed from the text, offered from the TypeScript service's
 * declarations (a real language service builds the navigation tree here), and resolved to the
 * lines of each declaration — never from a file hidden from the agent.
 */
import { afterEach, describe, expect, it } from "vitest";
import ts from "typescript";
import { mentionText, parseMentions, rankMentionCandidates, type SymbolEntry } from "../../lib/agent/mentions";
import { contextBlock, resolveMention, resolveMentionsIn } from "../../lib/agent/mentions-context";
import { symbolsOfTree, type NavigationTree } from "../../lib/editor/ts-symbols";
import { HiddenPathSet } from "../../lib/fs/hidden-view";
import { tempWs, type TempWs } from "./helpers";

const made: TempWs[] = [];
afterEach(() => made.splice(0).forEach((w) => w.cleanup()));

const GREET = `import { sum } from "./math";

/** Says hello. */
export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}

export class Greeter {
  constructor(private readonly who: string) {}
  hello(): string {
    return greet(this.who);
  }
}

export const shout = (s: string) => s.toUpperCase();
export type Name = string;
`;

/** The navigation tree TypeScript's language service gives for one file. */
function navigationTree(fileName: string, text: string): NavigationTree {
  const host: ts.LanguageServiceHost = {
    getScriptFileNames: () => [fileName],
    getScriptVersion: () => "1",
    getScriptSnapshot: (f) => (f === fileName ? ts.ScriptSnapshot.fromString(text) : undefined),
    getCurrentDirectory: () => "/",
    getCompilationSettings: () => ({ noLib: true }),
    getDefaultLibFileName: () => "lib.d.ts",
    fileExists: (f) => f === fileName,
    readFile: (f) => (f === fileName ? text : undefined),
  };
  return ts.createLanguageService(host).getNavigationTree(fileName) as unknown as NavigationTree;
}

const lineOf = (text: string) => (offset: number) => text.slice(0, offset).split("\n").length;

describe("symbol mentions", () => {
  it("are written @#name, with one member level, and parse without any lookup", () => {
    expect(parseMentions("explain @#greet and @#Greeter.hello, not @#1bad or me@#x", () => undefined).map((s) => s.ref)).toEqual([
      { kind: "symbol", name: "greet" },
      { kind: "symbol", name: "Greeter.hello" },
    ]);
    expect(mentionText({ kind: "symbol", name: "greet" })).toBe("@#greet");
    expect(parseMentions("see @#greet.", () => undefined)[0]!.ref).toEqual({ kind: "symbol", name: "greet" });
  });

  it("come from the language service's navigation tree, each with the lines of its whole declaration", () => {
    const symbols = symbolsOfTree(navigationTree("/src/greet.ts", GREET), "src/greet.ts", lineOf(GREET));
    const by = (n: string) => symbols.find((s) => s.name === n);
    expect(by("greet")).toEqual({ name: "greet", kind: "function", path: "src/greet.ts", startLine: 4, endLine: 6 });
    expect(by("Greeter")).toMatchObject({ kind: "class", startLine: 8, endLine: 13 });
    expect(by("Greeter.hello")).toMatchObject({ kind: "method", container: "Greeter", startLine: 10, endLine: 12 });
    expect(by("shout")).toMatchObject({ kind: "const", startLine: 15 });
    expect(by("Name")).toMatchObject({ kind: "type", startLine: 16 });
    expect(by("sum")).toBeUndefined(); // an import names a declaration made elsewhere
  });

  it("the popup ranks declarations after @#, one per name, with kind and place", () => {
    const symbols: SymbolEntry[] = [
      { name: "greet", kind: "function", path: "src/greet.ts", startLine: 3, endLine: 6 },
      { name: "greet", kind: "function", path: "src/other.ts", startLine: 1, endLine: 2 },
      { name: "Greeter", kind: "class", path: "src/greet.ts", startLine: 8, endLine: 13 },
      { name: "sum", kind: "function", path: "src/math.ts", startLine: 1, endLine: 3 },
    ];
    const c = rankMentionCandidates("#gre", [{ path: "src/greet.ts", kind: "file" }], 12, symbols);
    expect(c.map((x) => [x.label, x.description])).toEqual([
      ["#greet", "function · src/greet.ts:3"],
      ["#Greeter", "class · src/greet.ts:8"],
    ]);
    expect(c[0]!.positions).toEqual([1, 2, 3]);
    expect(rankMentionCandidates("gre", [{ path: "src/greet.ts", kind: "file" }], 12, symbols).map((x) => x.label)).toEqual(["src/greet.ts"]);
  });

  it("send the declaration's lines, say when nothing is found, and skip files hidden from the agent", async () => {
    const w = tempWs({ "src/greet.ts": GREET, ".env": "SECRET=1\nconst token = 1;\n" });
    made.push(w);
    const symbols = async (name: string): Promise<SymbolEntry[]> =>
      [
        { name: "greet", kind: "function", path: "src/greet.ts", startLine: 3, endLine: 6 },
        { name: "token", kind: "const", path: ".env", startLine: 2, endLine: 2 },
      ].filter((s) => s.name === name);
    const item = await resolveMention({ kind: "symbol", name: "greet" }, { wsfs: w.wsfs, symbols });
    expect(item).toMatchObject({ kind: "symbol", label: "#greet", source: "src/greet.ts:3-6" });
    expect(item.text).toBe("// function greet (src/greet.ts:3-6)\n/** Says hello. */\nexport function greet(name: string): string {\n  return `Hello, ${name}!`;\n}");
    expect(contextBlock([item])).toContain('<symbol source="src/greet.ts:3-6">');
    expect(await resolveMention({ kind: "symbol", name: "nothing" }, { wsfs: w.wsfs, symbols })).toMatchObject({ error: true, note: "No declaration named nothing in the workspace's TS/JS files." });
    const hidden = new HiddenPathSet();
    hidden.add({ policy: "env-blocker", reason: "env files are secret", test: (p) => p === ".env" });
    const hiddenItem = await resolveMention({ kind: "symbol", name: "token" }, { wsfs: w.wsfs.hidingView(hidden), symbols });
    expect(hiddenItem).toMatchObject({ error: true, note: "The declarations of token are hidden from the agent." });
    expect(hiddenItem.text).toBe("");
    // In a prompt: found with the files, no stat of "#greet" as a path.
    const items = await resolveMentionsIn("why does @#greet say hello? see @src/greet.ts", { wsfs: w.wsfs, symbols });
    expect(items.map((i) => i.label)).toEqual(["#greet", "src/greet.ts"]);
  });
});
