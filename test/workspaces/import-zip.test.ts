import { afterEach, describe, expect, it } from "vitest";
import { zipSync, strToU8, unzipSync } from "fflate";
import { planImport, stripCommonRoot, writeEntries } from "../../lib/workspaces/import-entries";
import { readZip, exportZip } from "../../lib/workspaces/zip";
import { tempWorkspace } from "../helpers/node-workspace";

describe("import planning", () => {
  it("normalises paths, sets the root .git apart, skips other .git paths, refuses escapes and duplicates", () => {
    const plan = planImport([
      { path: "a/./b.txt", data: "1" },
      { path: ".git/config", data: "x" },
      { path: ".git", data: "gitdir: ../elsewhere" },
      { path: "c.txt", data: "2" },
    ]);
    expect(plan.entries.map((e) => e.path)).toEqual(["a/b.txt", "c.txt"]);
    expect(plan.git.map((e) => e.path)).toEqual([".git/config"]);
    expect(plan.skipped).toEqual([".git"]);
    expect(() => planImport([{ path: "../../etc/passwd", data: "" }])).toThrow(/escape/i);
    expect(() => planImport([{ path: "a\u0000b", data: "" }])).toThrow();
    expect(() => planImport([{ path: "x.txt", data: "" }, { path: "./x.txt", data: "" }])).toThrow(/twice/);
  });

  it("strips the single top folder of a downloaded archive, and only then", () => {
    expect(stripCommonRoot([{ path: "p/a", data: "" }, { path: "p/b/c", data: "" }]).map((e) => e.path)).toEqual(["a", "b/c"]);
    expect(stripCommonRoot([{ path: "p/a", data: "" }, { path: "q", data: "" }]).map((e) => e.path)).toEqual(["p/a", "q"]);
  });
});

describe("zip round trip", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("rejects a file that is not a zip, and a damaged zip, with clear messages", async () => {
    await expect(readZip(strToU8("hello"))).rejects.toThrow("not a .zip archive");
    const good = zipSync({ "a.txt": strToU8("a".repeat(1000)) });
    await expect(readZip(good.subarray(0, 40))).rejects.toThrow(/damaged|not a/);
  });

  it("imports and exports byte-identical files, never including .git", async () => {
    const files = { "src/a.ts": strToU8("export {}\n"), "bin/x.bin": Uint8Array.from([0, 255, 1, 254]), "ünï.txt": strToU8("✓") };
    const entries = await readZip(zipSync(files));
    const ws = tempWorkspace({ ".git/HEAD": "ref: refs/heads/main\n" });
    cleanup = ws.cleanup;
    const progress: number[] = [];
    await writeEntries(ws.wsfs, planImport(entries).entries, (done) => progress.push(done));
    expect(progress.at(-1)).toBe(3);
    const out = unzipSync(await exportZip(ws.wsfs));
    expect(Object.keys(out).sort()).toEqual(Object.keys(files).sort());
    for (const [p, data] of Object.entries(files)) expect(Buffer.from(out[p]).equals(Buffer.from(data))).toBe(true);
  });
});
