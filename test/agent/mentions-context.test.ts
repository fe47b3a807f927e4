import { afterEach, describe, expect, it } from "vitest";
import { applyTotalCap, contextBlock, cutToBytes, describeContextItem, resolveMention, resolveMentionsIn, DEFAULT_MENTION_CAPS, type ContextItem } from "../../lib/agent/mentions-context";
import { HiddenPathSet } from "../../lib/fs/hidden-view";
import { formatProblems, type Problem } from "../../lib/editor/problems";
import { tempWs, type TempWs } from "./helpers";

const made: TempWs[] = [];
afterEach(() => made.splice(0).forEach((w) => w.cleanup()));
const ws = (files: Record<string, string | Uint8Array>) => {
  const w = tempWs(files);
  made.push(w);
  return w;
};

describe("cutToBytes", () => {
  it("never splits a character and prefers a line end", () => {
    expect(cutToBytes("héllo", 100)).toEqual({ text: "héllo", bytes: 6, size: 6, truncated: false });
    const cut = cutToBytes("aé", 2); // é is two bytes: cutting at 2 would split it
    expect(cut).toMatchObject({ text: "a", bytes: 1, truncated: true });
    expect(cutToBytes("line one\nline two\nline three", 20).text).toBe("line one\nline two\n");
  });
});

describe("resolving mentions", () => {
  it("reads a mentioned file, and a folder as a listing", async () => {
    const w = ws({ "src/greet.ts": "export const hi = 1;\n", "src/lib/x.ts": "x", "src/.git/HEAD": "no" });
    const file = await resolveMention({ kind: "file", path: "src/greet.ts" }, { wsfs: w.wsfs });
    expect(file).toMatchObject({ kind: "file", label: "src/greet.ts", text: "export const hi = 1;\n", size: 21, sent: 21 });
    expect(file.truncated).toBeUndefined();
    const folder = await resolveMention({ kind: "folder", path: "src" }, { wsfs: w.wsfs });
    expect(folder.label).toBe("src/");
    expect(folder.text).toBe("lib/\n  x.ts\ngreet.ts");
  });

  it("cuts a large file at the cap and says so on the chip", async () => {
    const big = "0123456789\n".repeat(10_000); // 110 000 bytes
    const w = ws({ "big.log": big });
    const item = await resolveMention({ kind: "file", path: "big.log" }, { wsfs: w.wsfs });
    expect(item.truncated).toBe(true);
    expect(item.sent).toBeLessThanOrEqual(DEFAULT_MENTION_CAPS.fileBytes);
    expect(item.size).toBe(110_000);
    expect(item.text.endsWith("\n")).toBe(true);
    const chip = describeContextItem(item);
    expect(chip.text).toBe("big.log · 32.0 KB of 107.4 KB");
    expect(chip.title).toContain("Cut at 32.0 KB of 107.4 KB");
  });

  it("turns a missing, binary or hidden file into an item with a reason, never a throw", async () => {
    const w = ws({ "img.png": new Uint8Array([0x89, 0x50, 0, 0, 1, 2]), ".env": "SECRET=1" });
    const missing = await resolveMention({ kind: "file", path: "nope.ts" }, { wsfs: w.wsfs });
    expect(missing).toMatchObject({ error: true, note: "No such file.", text: "" });
    const binary = await resolveMention({ kind: "file", path: "img.png" }, { wsfs: w.wsfs });
    expect(binary).toMatchObject({ error: true, text: "" });
    expect(binary.note).toMatch(/binary file/);
    const hidden = new HiddenPathSet();
    hidden.add({ policy: "env-blocker", reason: "env files are secret", test: (p) => p === ".env" });
    const env = await resolveMention({ kind: "file", path: ".env" }, { wsfs: w.wsfs.hidingView(hidden) });
    expect(env.error).toBe(true);
    expect(env.text).toBe("");
    expect(env.note).toMatch(/^Hidden from the agent/);
  });

  it("reads the selection and the diff from their sources, and says when there is none", async () => {
    const w = ws({});
    const sel = await resolveMention({ kind: "selection" }, { wsfs: w.wsfs, selection: async () => ({ path: "src/a.ts", startLine: 3, endLine: 5, text: "const a = 1;" }) });
    expect(sel).toMatchObject({ label: "selection", source: "src/a.ts:3-5", text: "const a = 1;" });
    const none = await resolveMention({ kind: "selection" }, { wsfs: w.wsfs, selection: async () => undefined });
    expect(none).toMatchObject({ error: true, note: "Nothing is selected in the editor." });
    const diff = await resolveMention({ kind: "diff" }, { wsfs: w.wsfs, diff: async () => "diff --git a/x b/x\n+new\n" });
    expect(diff).toMatchObject({ label: "diff", text: "diff --git a/x b/x\n+new\n" });
    const clean = await resolveMention({ kind: "diff" }, { wsfs: w.wsfs, diff: async () => "" });
    expect(clean.note).toMatch(/No changes/);
    const broken = await resolveMention({ kind: "diff" }, { wsfs: w.wsfs, diff: async () => Promise.reject(new Error("not a git repository")) });
    expect(broken).toMatchObject({ error: true, note: "git diff failed: not a git repository" });
  });

  it("@problems reads the Problems list in the compiler's form, says when it is empty, and fails clearly without one", async () => {
    const w = ws({});
    const problems: Problem[] = [
      { path: "src/b.ts", line: 4, column: 2, endLine: 4, endColumn: 9, severity: "warning", message: "'x' is declared but never used.", code: "6133", source: "typescript" },
      { path: "src/a.ts", line: 1, column: 7, endLine: 1, endColumn: 8, severity: "error", message: "Type 'string' is not assignable to type 'number'.", code: "2322", source: "typescript" },
    ];
    const item = await resolveMention({ kind: "problems" }, { wsfs: w.wsfs, problems: async () => formatProblems(problems) });
    expect(item).toMatchObject({ label: "problems", source: "Problems" });
    expect(item.text.split("\n")).toEqual([
      "src/a.ts:1:7 error TS2322: Type 'string' is not assignable to type 'number'.",
      "src/b.ts:4:2 warning TS6133: 'x' is declared but never used.",
    ]);
    expect(contextBlock([item])).toContain('<problems source="Problems">');
    const clean = await resolveMention({ kind: "problems" }, { wsfs: w.wsfs, problems: async () => formatProblems([]) });
    expect(clean.note).toMatch(/No problems/);
    expect(await resolveMention({ kind: "problems" }, { wsfs: w.wsfs })).toMatchObject({ error: true });
    const inPrompt = await resolveMentionsIn("fix @problems please", { wsfs: w.wsfs, problems: async () => formatProblems(problems) });
    expect(inPrompt.map((i) => i.label)).toEqual(["problems"]);
  });

  it("finds the mentions of a prompt against the workspace and keeps them within the total cap", async () => {
    const w = ws({ "a.txt": "A".repeat(3000), "b.txt": "B".repeat(3000), "c.txt": "C".repeat(3000) });
    const caps = { ...DEFAULT_MENTION_CAPS, totalBytes: 5000 };
    const items = await resolveMentionsIn("compare @a.txt, @b.txt and @c.txt (not @nothing)", { wsfs: w.wsfs }, caps);
    expect(items.map((i) => i.label)).toEqual(["a.txt", "b.txt", "c.txt"]);
    expect(items.map((i) => i.sent)).toEqual([3000, 2000, 0]);
    expect(items[1]!.truncated).toBe(true);
    expect(items[2]).toMatchObject({ error: true, text: "" });
    expect(items[2]!.note).toMatch(/^Left out/);
    expect(items.reduce((n, i) => n + i.sent, 0)).toBeLessThanOrEqual(5000);
  });

  it("renders the block the model reads, with sources and notes", () => {
    const items: ContextItem[] = [
      { kind: "file", label: "a.ts", source: "a.ts", text: "let a;\n", size: 7, sent: 7 },
      { kind: "file", label: "gone.ts", source: "gone.ts", text: "", size: 0, sent: 0, error: true, note: "No such file." },
    ];
    const block = contextBlock(items);
    expect(block).toContain('<file source="a.ts">\nlet a;\n</file>');
    expect(block).toContain('<file source="gone.ts" note="No such file.">\n</file>');
    expect(contextBlock([])).toBe("");
    expect(applyTotalCap(items, 100)).toEqual(items);
  });
});

describe("a large folder", () => {
  it("is listed up to the entry cap, and the chip says the folder holds more", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`big/f${String(i).padStart(2, "0")}.txt`] = "x";
    const w = ws(files);
    const item = await resolveMention({ kind: "folder", path: "big" }, { wsfs: w.wsfs }, { ...DEFAULT_MENTION_CAPS, folderEntries: 10 });
    expect(item.text.split("\n")).toEqual(Array.from({ length: 10 }, (_, i) => `f0${i}.txt`));
    expect(item.truncated).toBe(true);
    expect(item.note).toBe("Listing cut at 10 entries: the folder holds more.");
  });
});
