import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { recoverInterruptedWrites } from "../../lib/fs";
import { tempWorkspace } from "../helpers/node-workspace";

describe("recovery of interrupted saves", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("moves a temp file back when its target is gone, discards it when the target is intact", async () => {
    const ws = tempWorkspace({
      "src/.a.ts.tabula-tmp-x1y2": "new a",
      "b.txt": "old b",
      ".b.txt.tabula-tmp-zz9": "half-written b",
      "c.txt": "untouched",
    });
    cleanup = ws.cleanup;
    const r = await recoverInterruptedWrites(ws.wsfs);
    expect(r).toEqual({ restored: ["src/a.ts"], discarded: [".b.txt.tabula-tmp-zz9"] });
    expect(fs.readFileSync(path.join(ws.dir, "src/a.ts"), "utf8")).toBe("new a");
    expect(fs.readFileSync(path.join(ws.dir, "b.txt"), "utf8")).toBe("old b");
    expect((await ws.wsfs.listFiles("")).sort()).toEqual(["b.txt", "c.txt", "src/a.ts"]);
  });

  it("does nothing on a clean workspace or in a read-only view", async () => {
    const ws = tempWorkspace({ "a.txt": "a", ".x.tabula-tmp-1": "x" });
    cleanup = ws.cleanup;
    expect(await recoverInterruptedWrites(ws.wsfs.readOnlyView())).toEqual({ restored: [], discarded: [] });
    expect(fs.existsSync(path.join(ws.dir, ".x.tabula-tmp-1"))).toBe(true);
  });
});
