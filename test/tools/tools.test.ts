import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import {
  applyPatchTool,
  askQuestionTool,
  attemptCompletionTool,
  builtinTools,
  callApproval,
  callEffects,
  editorTool,
  headTail,
  isMutating,
  listFilesTool,
  readFilesTool,
  resolvePath,
  runCommandsTool,
  searchCodebaseTool,
} from "../../lib/tools";
import { toolSpec } from "../../lib/agent/session";
import { cleanupList, type TempWs } from "../agent/helpers";
import { call, ctxFor, tempWs } from "./helpers";

const cleanups = cleanupList();
afterEach(() => cleanups.run());
function ws(files: Record<string, string | Uint8Array> = {}): TempWs {
  const w = tempWs(files);
  cleanups.add(w.cleanup);
  return w;
}

describe("tool definitions", () => {
  it("every built-in tool has a schema that converts to an object JSON schema, effects and a description", () => {
    for (const t of builtinTools()) {
      const spec = toolSpec(t);
      expect(spec.inputSchema.type, t.name).toBe("object");
      expect(t.description.length, t.name).toBeGreaterThan(80);
      expect(Array.isArray(t.effects)).toBe(true);
    }
    expect(builtinTools().map((t) => t.name)).toEqual(["read_files", "list_files", "search_codebase", "editor", "apply_patch", "run_commands", "preview", "ask_question", "attempt_completion"]);
  });

  it("declares effect classes and approval categories per call", () => {
    expect(callEffects(editorTool, { command: "view", path: "a" })).toEqual(["read"]);
    expect(callEffects(editorTool, { command: "create", path: "a", file_text: "" })).toEqual(["file-write"]);
    expect(callApproval(editorTool, { command: "view", path: "a" })).toBe("read");
    expect(callApproval(editorTool, { command: "insert", path: "a", new_str: "x", insert_line: 0 })).toBe("edit");
    expect(callApproval(runCommandsTool, { commands: "ls" })).toBe("command");
    expect(callApproval(applyPatchTool, { patch: "x" })).toBe("edit");
    expect(callApproval(askQuestionTool, { question: "q" })).toBe("none");
    expect(isMutating(runCommandsTool.effects)).toBe(true);
    expect(isMutating(readFilesTool.effects)).toBe(false);
    expect(isMutating(attemptCompletionTool.effects)).toBe(false);
    expect(applyPatchTool.effects).toEqual(["file-write", "file-delete"]);
  });

  it("accepts the path styles models use, and refuses escapes", () => {
    const w = ws();
    expect(resolvePath(w.wsfs, "src/a.ts")).toBe("src/a.ts");
    expect(resolvePath(w.wsfs, "/src/a.ts")).toBe("src/a.ts");
    expect(resolvePath(w.wsfs, "./src/a.ts")).toBe("src/a.ts");
    expect(resolvePath(w.wsfs, "/workspace/src/a.ts")).toBe("src/a.ts");
    expect(resolvePath(w.wsfs, `${w.dir}/src/a.ts`)).toBe("src/a.ts");
    expect(() => resolvePath(w.wsfs, "../x")).toThrow(/escapes the workspace/);
  });
});

describe("read_files", () => {
  it("reads several files with line numbers and ranges", async () => {
    const w = ws({ "a.txt": "one\ntwo\nthree\n", "src/b.ts": "export const b = 1;\n" });
    const r = await call(readFilesTool, { files: [{ path: "a.txt", start_line: 2, end_line: 3 }, { path: "/src/b.ts" }] }, ctxFor(w));
    expect(r.isError).toBeFalsy();
    expect(r.output).toContain('<file path="a.txt" lines="2-3" total_lines="3">\n2\ttwo\n3\tthree\n</file>');
    expect(r.output).toContain("1\texport const b = 1;");
    expect(r.summary).toBe("Read 2 files");
  });

  it("caps long files and says how to read the rest", async () => {
    const w = ws({ "long.txt": Array.from({ length: 50 }, (_, i) => `l${i + 1}`).join("\n") });
    const r = await call(readFilesTool, { files: [{ path: "long.txt" }] }, ctxFor(w, { limits: { readMaxLines: 10 } }));
    expect(r.output).toContain("10\tl10");
    expect(r.output).not.toContain("l11\n");
    expect(r.output).toContain("lines 11-50 not shown. Read them with start_line=11");
  });

  it("refuses binary, missing, directories and escapes clearly", async () => {
    const bigBinary = new Uint8Array(2000);
    bigBinary.set([0x89, 0x50, 0x4e, 0x47, 0]);
    const w = ws({ "img.png": new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]), "big.bin": bigBinary, "d/x.txt": "x" });
    const ctx = ctxFor(w, { limits: { readMaxFileBytes: 1000 } });
    const r = await call(readFilesTool, { files: [{ path: "img.png" }, { path: "nope.txt" }, { path: "d" }, { path: "../etc/passwd" }, { path: "big.bin", start_line: 1, end_line: 3 }] }, ctx);
    expect(r.isError).toBe(true);
    expect(r.output).toContain("img.png is a binary file");
    expect(r.output).toContain("nope.txt does not exist");
    expect(r.output).toContain("d is a directory; use list_files");
    expect(r.output).toContain("escapes the workspace");
    expect(r.output).toContain("big.bin is a binary file (2.0 KB); only text files can be read");
  });

  it("reads line ranges of a text file over 5 MB without sending the rest", async () => {
    const lines = Array.from({ length: 400_000 }, (_, i) => `row ${i + 1} ${"·".repeat(10)}`);
    const w = ws({ "big.log": lines.join("\r\n") + "\r\n" });
    const size = (await w.wsfs.stat("big.log"))!.size;
    expect(size).toBeGreaterThan(5 * 1024 * 1024);
    const head = await call(readFilesTool, { files: [{ path: "big.log", start_line: 1, end_line: 3 }] }, ctxFor(w));
    expect(head.isError).toBeFalsy();
    expect(head.output).toBe(`<file path="big.log" lines="1-3" total_lines="400000" size="${(size / 1024 / 1024).toFixed(1)} MB">\n1\t${lines[0]}\n2\t${lines[1]}\n3\t${lines[2]}\n</file>`);
    const tail = await call(readFilesTool, { files: [{ path: "big.log", start_line: 399_999 }] }, ctxFor(w));
    expect(tail.output).toContain(`399999\t${lines[399_998]}\n400000\t${lines[399_999]}\n</file>`);
    // Without a range: the first lines, cut by the output budget, with the way on.
    const first = await call(readFilesTool, { files: [{ path: "big.log" }] }, ctxFor(w, { limits: { readMaxCharsPerFile: 2000 } }));
    expect(first.output.length).toBeLessThan(2300);
    expect(first.output).toMatch(/continues: lines \d+-400000 not shown\. Read them with start_line=\d+/);
  });

  it("cuts one giant line to the output budget", async () => {
    const w = ws({ "min.js": "x".repeat(50_000) + "\nsecond\n" });
    const r = await call(readFilesTool, { files: [{ path: "min.js" }] }, ctxFor(w, { limits: { readMaxCharsPerFile: 1000 } }));
    expect(r.output).toContain("[… line 1 cut: 50000 characters]");
    expect(r.output.length).toBeLessThan(1300);
  });

  it("reports a start line past the end", async () => {
    const w = ws({ "a.txt": "x\n" });
    const r = await call(readFilesTool, { files: [{ path: "a.txt", start_line: 5 }] }, ctxFor(w));
    expect(r.output).toContain("has 1 line; start_line 5 is past its end");
  });
});

describe("list_files", () => {
  it("lists a tree honouring .gitignore and skipping .git", async () => {
    const w = ws({
      ".gitignore": "node_modules/\n*.log\n",
      "src/a.ts": "",
      "src/lib/b.ts": "",
      "node_modules/x/index.js": "",
      "debug.log": "",
      ".git/HEAD": "ref: refs/heads/main\n",
      "README.md": "",
    });
    const r = await call(listFilesTool, {}, ctxFor(w));
    expect(r.output).toBe(["./", "  src/", "    lib/", "      b.ts", "    a.ts", "  .gitignore", "  README.md", "[2 entries ignored by .gitignore not shown.]"].join("\n"));
    const flat = await call(listFilesTool, { path: "src", recursive: false }, ctxFor(w));
    expect(flat.output).toBe("src/\n  lib/\n  a.ts");
  });

  it("cuts long listings with a note", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 30; i++) files[`f${String(i).padStart(2, "0")}.txt`] = "";
    const w = ws(files);
    const r = await call(listFilesTool, { max_entries: 10 }, ctxFor(w));
    expect(r.output).toContain("Listing cut at 10 entries");
    expect(r.data).toMatchObject({ entries: 10, truncated: true });
  });

  it("errors on a file or a missing directory", async () => {
    const w = ws({ "a.txt": "" });
    expect((await call(listFilesTool, { path: "a.txt" }, ctxFor(w))).output).toContain("is a file");
    expect((await call(listFilesTool, { path: "zzz" }, ctxFor(w))).output).toContain("does not exist");
  });
});

describe("search_codebase", () => {
  it("finds regex matches grouped by file, smart case, skipping ignored and binary files", async () => {
    const w = ws({
      ".gitignore": "dist/\n",
      "src/a.ts": "function greet() {}\nconst GREET = 1;\n",
      "src/b.ts": "// nothing here\n",
      "dist/a.js": "function greet() {}\n",
      "bin.dat": new Uint8Array([0, 1, 2, 103, 114, 101, 101, 116]),
    });
    const r = await call(searchCodebaseTool, { query: "greet" }, ctxFor(w));
    expect(r.output).toBe("src/a.ts\n  1: function greet() {}\n  2: const GREET = 1;\n2 matches in 1 file (3 searched).");
    const cs = await call(searchCodebaseTool, { query: "GREET" }, ctxFor(w));
    expect(cs.output).toContain("1 match in 1 file");
    const re = await call(searchCodebaseTool, { query: "function\\s+\\w+\\(", include: "*.ts" }, ctxFor(w));
    expect(re.output).toContain("src/a.ts");
  });

  it("caps results and explains bad patterns", async () => {
    const w = ws({ "a.txt": Array.from({ length: 100 }, () => "hit").join("\n") });
    const r = await call(searchCodebaseTool, { query: "hit", max_results: 5 }, ctxFor(w));
    expect(r.output).toContain("Results cut at 5 matches");
    const bad = await call(searchCodebaseTool, { query: "(unclosed" }, ctxFor(w));
    expect(bad.isError).toBe(true);
    expect(bad.output).toContain("Invalid regular expression");
    const none = await call(searchCodebaseTool, { query: "zebra" }, ctxFor(w));
    expect(none.output).toContain("No matches for /zebra/i");
  });

  it("include globs: classes, nested braces and ! exclusions (picomatch)", async () => {
    const w = ws({
      "src/a.ts": "hit\n",
      "src/a.d.ts": "hit\n",
      "src/b.js": "hit\n",
      "src/c.tsx": "hit\n",
      "src/deep/d.jsx": "hit\n",
      "docs/e.md": "hit\n",
    });
    const files = async (include: string | string[]) => {
      const r = await call(searchCodebaseTool, { query: "hit", include }, ctxFor(w));
      return r.output.split("\n").filter((l) => !l.startsWith(" ") && l.includes("/"));
    };
    expect(await files("*.[jt]s")).toEqual(["src/a.d.ts", "src/a.ts", "src/b.js"]);
    expect(await files("src/**/*.{ts,{tsx,jsx}}")).toEqual(["src/a.d.ts", "src/a.ts", "src/c.tsx", "src/deep/d.jsx"]);
    expect(await files(["*.ts", "!*.d.ts"])).toEqual(["src/a.ts"]);
    expect(await files("!src/**")).toEqual(["docs/e.md"]);
    expect(await files("src/*.ts")).toEqual(["src/a.d.ts", "src/a.ts"]);
    expect(await files("*.ts")).toEqual(["src/a.d.ts", "src/a.ts"]);
  });

  it("runs catastrophic patterns in linear time and explains unsupported syntax", async () => {
    // JavaScript's RegExp backtracks for longer than the universe has existed on each "!" line.
    const w = ws({ "a.txt": ("a".repeat(5000) + "!\n").repeat(20) + "aaaa\n" });
    const t = Date.now();
    const r = await call(searchCodebaseTool, { query: "(a+)+$" }, ctxFor(w));
    expect(Date.now() - t).toBeLessThan(5000);
    expect(r.output).toBe("a.txt\n  21: aaaa\n1 match in 1 file (1 searched).");
    const back = await call(searchCodebaseTool, { query: "(\\w+) \\1" }, ctxFor(w));
    expect(back.isError).toBe(true);
    expect(back.output).toMatch(/Backreferences .* not supported/);
    const ahead = await call(searchCodebaseTool, { query: "foo(?=bar)" }, ctxFor(w));
    expect(ahead.output).toContain('"foo(?=bar)" → "foobar"');
  });
});

describe("editor", () => {
  it("str_replace: exact unique match, diff preview, CRLF kept", async () => {
    const w = ws({ "a.ts": "line1\r\nconst x = 1;\r\nline3\r\n" });
    const r = await call(editorTool, { command: "str_replace", path: "a.ts", old_str: "const x = 1;\nline3", new_str: "const x = 2;\nline3" }, ctxFor(w));
    expect(r.isError).toBeFalsy();
    expect(w.read("a.ts")).toBe("line1\r\nconst x = 2;\r\nline3\r\n");
    expect(r.summary).toBe("Edited a.ts (+1 −1)");
    expect(r.output).toContain("Lines 1-3 now read");
    expect((r.preview as { kind: string }).kind).toBe("diff");
  });

  it("says exactly why an edit did not apply", async () => {
    const w = ws({ "a.ts": "  if (x) {\n    go();\n  }\ngo();\n" });
    const ctx = ctxFor(w);
    const missing = await call(editorTool, { command: "str_replace", path: "b.ts", old_str: "a", new_str: "b" }, ctx);
    expect(missing.output).toMatch(/File b.ts does not exist.*use command "create"/);
    const twice = await call(editorTool, { command: "str_replace", path: "a.ts", old_str: "go();", new_str: "stop();" }, ctx);
    expect(twice.output).toContain("old_str occurs 2 times in a.ts (starting at lines 2, 4)");
    const indent = await call(editorTool, { command: "str_replace", path: "a.ts", old_str: "if (x) {\n  go();\n}", new_str: "y" }, ctx);
    expect(indent.output).toContain("differs only in whitespace/indentation starts at line 1");
    const nums = await call(editorTool, { command: "str_replace", path: "a.ts", old_str: "2\t    go();", new_str: "y" }, ctx);
    expect(nums.output).toContain("line number copied");
    const none = await call(editorTool, { command: "str_replace", path: "a.ts", old_str: "nowhere", new_str: "y" }, ctx);
    expect(none.output).toContain("old_str was not found in a.ts");
    const same = await call(editorTool, { command: "str_replace", path: "a.ts", old_str: "go", new_str: "go" }, ctx);
    expect(same.output).toContain("identical");
    const empty = await call(editorTool, { command: "str_replace", path: "a.ts", old_str: "", new_str: "x" }, ctx);
    expect(empty.output).toContain("old_str is empty");
    expect(w.read("a.ts")).toBe("  if (x) {\n    go();\n  }\ngo();\n");
  });

  it("create, insert and view", async () => {
    const w = ws({ "a.txt": "one\ntwo" });
    const ctx = ctxFor(w);
    const c = await call(editorTool, { command: "create", path: "new/dir/b.txt", file_text: "hello\n" }, ctx);
    expect(c.summary).toBe("Created new/dir/b.txt (+1 −0)");
    expect(w.read("new/dir/b.txt")).toBe("hello\n");
    await call(editorTool, { command: "insert", path: "a.txt", insert_line: 0, new_str: "zero" }, ctx);
    await call(editorTool, { command: "insert", path: "a.txt", insert_line: 3, new_str: "three" }, ctx);
    expect(w.read("a.txt")).toBe("zero\none\ntwo\nthree\n");
    const past = await call(editorTool, { command: "insert", path: "a.txt", insert_line: 9, new_str: "x" }, ctx);
    expect(past.output).toContain("past the end of a.txt, which has 4 lines");
    const v = await call(editorTool, { command: "view", path: "a.txt", view_range: [2, 3] }, ctx);
    expect(v.output).toBe("2\tone\n3\ttwo");
    const d = await call(editorTool, { command: "view", path: "new" }, ctx);
    expect(d.output).toBe("new/\n  dir/");
    const same = await call(editorTool, { command: "create", path: "new/dir/b.txt", file_text: "hello\n" }, ctx);
    expect(same.output).toContain("already has exactly this content");
  });

  it("validates per-command required fields", () => {
    const r = editorTool.inputSchema.safeParse({ command: "str_replace", path: "a" });
    expect(r.success).toBe(false);
    expect(z.prettifyError(r.error!)).toContain('old_str is required for command "str_replace"');
  });

  it("refuses to edit in a read-only mode, and refuses binary files", async () => {
    const w = ws({ "a.txt": "x\n", "b.bin": new Uint8Array([0, 1, 2]) });
    const ro = await call(editorTool, { command: "create", path: "c.txt", file_text: "x" }, ctxFor(w, { readOnly: true }));
    expect(ro.output).toContain("read-only in plan mode");
    const bin = await call(editorTool, { command: "str_replace", path: "b.bin", old_str: "a", new_str: "b" }, ctxFor(w));
    expect(bin.output).toContain("binary file");
  });
});

describe("apply_patch", () => {
  it("applies a multi-file unified diff (modify, create, delete)", async () => {
    const w = ws({ "a.txt": "one\ntwo\nthree\nfour\n", "gone.txt": "bye\n" });
    const patch = [
      "diff --git a/a.txt b/a.txt",
      "--- a/a.txt",
      "+++ b/a.txt",
      "@@ -1,4 +1,4 @@",
      " one",
      "-two",
      "+TWO",
      " three",
      " four",
      "--- /dev/null",
      "+++ b/new.txt",
      "@@ -0,0 +1,2 @@",
      "+fresh",
      "+file",
      "--- a/gone.txt",
      "+++ /dev/null",
      "@@ -1 +0,0 @@",
      "-bye",
      "",
    ].join("\n");
    const r = await call(applyPatchTool, { patch }, ctxFor(w));
    expect(r.isError).toBeFalsy();
    expect(w.read("a.txt")).toBe("one\nTWO\nthree\nfour\n");
    expect(w.read("new.txt")).toBe("fresh\nfile\n");
    expect(w.exists("gone.txt")).toBe(false);
    expect(r.output).toContain("modified a.txt (+1 −1)");
    expect(r.output).toContain("created new.txt (+2 −0)");
    expect(r.output).toContain("deleted gone.txt (+0 −1)");
    const preview = r.preview as { kind: string; files: { path: string }[] };
    expect(preview.files.map((f) => f.path).sort()).toEqual(["a.txt", "gone.txt", "new.txt"]);
  });

  it("is all or nothing: one bad hunk and nothing is written", async () => {
    const w = ws({ "a.txt": "one\ntwo\nthree\n", "b.txt": "alpha\nbeta\n" });
    const patch = ["--- a/a.txt", "+++ b/a.txt", "@@ -1,3 +1,3 @@", " one", "-two", "+2", " three", "--- a/b.txt", "+++ b/b.txt", "@@ -1,2 +1,2 @@", " alpha", "-gamma", "+delta", ""].join("\n");
    const r = await call(applyPatchTool, { patch }, ctxFor(w));
    expect(r.isError).toBe(true);
    expect(r.output).toMatch(/Hunk 1 of 1 for b.txt \(file 2 of the patch\).*does not apply.*"gamma" is not in the file/);
    expect(w.read("a.txt")).toBe("one\ntwo\nthree\n");
    expect(w.read("b.txt")).toBe("alpha\nbeta\n");
  });

  it("explains wrong formats and targets", async () => {
    const w = ws({ "a.txt": "x\n" });
    const ctx = ctxFor(w);
    expect((await call(applyPatchTool, { patch: "*** Begin Patch\n*** Update File: a.txt\n" }, ctx)).output).toContain('not the "*** Begin Patch" format');
    expect((await call(applyPatchTool, { patch: "just some text" }, ctx)).output).toContain("contains no file changes");
    expect((await call(applyPatchTool, { patch: "--- a/zz.txt\n+++ b/zz.txt\n@@ -1 +1 @@\n-a\n+b\n" }, ctx)).output).toContain("zz.txt, but that file does not exist");
    expect((await call(applyPatchTool, { patch: "--- /dev/null\n+++ b/a.txt\n@@ -0,0 +1 @@\n+y\n" }, ctx)).output).toContain("already exists");
  });
});

describe("run_commands", () => {
  it("runs commands in order through the shell, carrying cwd, cutting long output to head + tail", async () => {
    const w = ws();
    const seen: { command: string; cwd?: string; timeoutMs?: number }[] = [];
    const shell = {
      exec: async (command: string, o: { cwd?: string; timeoutMs?: number } = {}) => {
        seen.push({ command, cwd: o.cwd, timeoutMs: o.timeoutMs });
        if (command === "cd src") return { stdout: "", stderr: "", exitCode: 0, cwd: "/workspace/src" };
        if (command === "big") return { stdout: Array.from({ length: 5000 }, (_, i) => `row ${i}`).join("\n"), stderr: "", exitCode: 0 };
        return { stdout: "", stderr: "boom\n", exitCode: 2 };
      },
    };
    const r = await call(runCommandsTool, { commands: ["cd src", "big", "fail"], timeout_seconds: 5 }, ctxFor(w, { shell, limits: { commandOutputChars: 2000 } }));
    expect(seen).toEqual([
      { command: "cd src", cwd: undefined, timeoutMs: 5000 },
      { command: "big", cwd: "/workspace/src", timeoutMs: 5000 },
      { command: "fail", cwd: "/workspace/src", timeoutMs: 5000 },
    ]);
    expect(r.output).toContain("$ big\nrow 0");
    expect(r.output).toContain("row 4999");
    expect(r.output).toMatch(/\[… \d+ characters \(\d+ lines\) of output omitted …\]/);
    expect(r.output).toContain("$ fail\nboom\n[exit code 2]");
    expect(r.summary).toBe("3 commands, 1 failed");
    expect(r.data).toMatchObject({ results: [{ exitCode: 0 }, { exitCode: 0, truncated: true }, { exitCode: 2 }] });
  });

  it("accepts a single string, and reports timeouts", async () => {
    const w = ws();
    const shell = { exec: async () => ({ stdout: "", stderr: "bash: command timed out after 1s\n", exitCode: 124 }) };
    const r = await call(runCommandsTool, { commands: "sleep 9" }, ctxFor(w, { shell }));
    expect(r.output).toContain("[exit code 124: timed out after 60s]");
    expect(r.summary).toBe("sleep 9 → exit 124");
  });
});

describe("ask_question and attempt_completion", () => {
  it("asks and returns the answer; completes with a summary", async () => {
    const w = ws();
    const a = await call(askQuestionTool, { question: "Which?", choices: ["a", "b"] }, ctxFor(w, { answer: "b" }));
    expect(a.output).toBe("The user answered: b");
    expect(askQuestionTool.inputSchema.safeParse({ question: "q", choices: ["only one"] }).success).toBe(false);
    const c = await call(attemptCompletionTool, { summary: "Did it." }, ctxFor(w));
    expect(c.completion).toEqual({ summary: "Did it." });
  });
});

describe("headTail", () => {
  it("keeps head and tail with a note", () => {
    const text = Array.from({ length: 1000 }, (_, i) => `l${i}`).join("\n");
    const r = headTail(text, 300);
    expect(r.truncated).toBe(true);
    expect(r.text.startsWith("l0\n")).toBe(true);
    expect(r.text.endsWith("l999")).toBe(true);
    expect(r.text.length).toBeLessThan(400);
    expect(headTail("short", 300)).toEqual({ text: "short", truncated: false });
  });
});
