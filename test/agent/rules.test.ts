import { afterEach, describe, expect, it } from "vitest";
import { discoverRules, folderChain, loadWorkspaceRules, selectRules } from "../../lib/agent/rules";
import { RuleSwitches } from "../../lib/agent/rules-settings";
import { tempWs, type TempWs } from "./helpers";

const made: TempWs[] = [];
afterEach(() => made.splice(0).forEach((w) => w.cleanup()));
const ws = (files: Record<string, string>) => {
  const w = tempWs(files);
  made.push(w);
  return w;
};

const ALL = {
  "AGENTS.md": "agents root",
  "CLAUDE.md": "claude root",
  ".cursorrules": "cursor",
  ".github/copilot-instructions.md": "copilot",
  ".clinerules/b.md": "cline b",
  ".clinerules/a.md": "cline a",
  ".clinerules/notes.txt": "not a rule",
  ".tabula/rules/t.md": "tabula t",
  "src/AGENTS.md": "agents src",
  "src/app/CLAUDE.md": "claude app",
  "src/app/deep/x.ts": "code",
  "other/AGENTS.md": "not on the chain",
};

describe("discovering rules files", () => {
  it("reads every kind at the root, then the open file's folder chain outermost first", async () => {
    const w = ws(ALL);
    const files = await discoverRules(w.wsfs, { activePath: "src/app/deep/x.ts" });
    expect(files.map((f) => f.path)).toEqual([
      "AGENTS.md",
      "CLAUDE.md",
      ".cursorrules",
      ".github/copilot-instructions.md",
      ".clinerules/a.md",
      ".clinerules/b.md",
      ".tabula/rules/t.md",
      "src/AGENTS.md",
      "src/app/CLAUDE.md",
    ]);
    expect(files.find((f) => f.path === "src/app/CLAUDE.md")).toMatchObject({ scope: "src/app", size: 10 });
    // Without an open file: the root only.
    expect((await discoverRules(w.wsfs)).some((f) => f.path.startsWith("src/"))).toBe(false);
  });

  it("takes .clinerules as a file too", async () => {
    const w = ws({ ".clinerules": "cline file" });
    expect((await discoverRules(w.wsfs)).map((f) => [f.path, f.text])).toEqual([[".clinerules", "cline file"]]);
  });

  it("names the folders of the chain", () => {
    expect(folderChain("src/app/x.ts")).toEqual(["src", "src/app"]);
    expect(folderChain("x.ts")).toEqual([]);
    expect(folderChain(undefined)).toEqual([]);
  });
});

describe("choosing what reaches the prompt", () => {
  it("includes the active files in order, and says where nested ones apply", async () => {
    const w = ws({ "AGENTS.md": "root rule", "src/CLAUDE.md": "src rule", "src/a.ts": "" });
    const rules = await loadWorkspaceRules(w.wsfs, { activePath: "src/a.ts" });
    expect(rules).toEqual([
      { source: "AGENTS.md", text: "root rule" },
      { source: "src/CLAUDE.md (for work under src/)", text: "src rule" },
    ]);
  });

  it("leaves out what the user turned off, and every file of an untrusted workspace", async () => {
    const w = ws({ "AGENTS.md": "root rule", "CLAUDE.md": "claude rule" });
    const files = await discoverRules(w.wsfs);
    const off = selectRules(files, { disabled: new Set(["CLAUDE.md"]) });
    expect(off.rules.map((r) => r.source)).toEqual(["AGENTS.md"]);
    expect(off.entries.map((e) => [e.path, e.status])).toEqual([
      ["AGENTS.md", "active"],
      ["CLAUDE.md", "off"],
    ]);
    const untrusted = selectRules(files, { trusted: false });
    expect(untrusted.rules).toEqual([]);
    expect(untrusted.entries.map((e) => e.status)).toEqual(["untrusted", "untrusted"]);
    expect(untrusted.entries[0]!.note).toBe("Inactive until you trust this workspace.");
  });

  it("reads a text repeated in another file once, and keeps to the caps", () => {
    const files = [
      { path: "AGENTS.md", size: 5, text: "same\n" },
      { path: "CLAUDE.md", size: 4, text: "same" },
      { path: ".cursorrules", size: 50, text: "x".repeat(50) },
      { path: ".github/copilot-instructions.md", size: 30, text: "y".repeat(30) },
      { path: ".clinerules", size: 1, text: "  " },
    ];
    const { rules, entries } = selectRules(files, { maxRuleChars: 40, maxTotalChars: 100 });
    expect(entries.map((e) => e.status)).toEqual(["active", "duplicate", "active", "over-cap", "empty"]);
    expect(entries[1]!.note).toBe("Same text as AGENTS.md: read once.");
    expect(entries[2]!.note).toBe("Cut at 40 characters.");
    expect(rules[1]!.text.startsWith("x".repeat(40) + "\n[… .cursorrules cut at 40 characters]")).toBe(true);
  });
});

describe("RuleSwitches", () => {
  it("keeps the user's off switches per workspace, and survives a damaged record", () => {
    const data = new Map<string, string>();
    const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v), removeItem: (k: string) => void data.delete(k) };
    const a = new RuleSwitches(storage, "ws-a");
    a.setEnabled("CLAUDE.md", false);
    expect([...new RuleSwitches(storage, "ws-a").disabled()]).toEqual(["CLAUDE.md"]);
    expect([...new RuleSwitches(storage, "ws-b").disabled()]).toEqual([]);
    a.setEnabled("CLAUDE.md", true);
    expect(data.has(a.key)).toBe(false);
    data.set(a.key, "{not json");
    expect(a.disabled().size).toBe(0);
  });
});
