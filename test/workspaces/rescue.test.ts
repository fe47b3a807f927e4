import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import type { IsoFs } from "../../lib/fs/types";
import { entriesToZip, keepWorkingTree } from "../../lib/workspaces/rescue";
import { readZip } from "../../lib/workspaces/zip";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("keeping a deleted workspace's state", () => {
  it("keeps the working tree with unsaved editor text over it, never .git, and zips it", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-rescue-"));
    dirs.push(dir);
    fs.mkdirSync(path.join(dir, "src"));
    fs.mkdirSync(path.join(dir, ".git"));
    fs.writeFileSync(path.join(dir, ".git", "HEAD"), "ref: refs/heads/main\n");
    fs.writeFileSync(path.join(dir, "src", "a.ts"), "saved a\n");
    fs.writeFileSync(path.join(dir, "logo.bin"), Buffer.from([0, 1, 2, 255]));
    const wsfs = new WorkspaceFs({ fs: fs as unknown as IsoFs, dir });
    const kept = await keepWorkingTree(wsfs, [{ path: "src/a.ts", text: "unsaved a\n" }, { path: "new.md", text: "# never saved\n" }]);
    expect(kept.map((e) => e.path)).toEqual(["logo.bin", "new.md", "src/a.ts"]);
    const back = await readZip(await entriesToZip(kept));
    const byPath = new Map(back.map((e) => [e.path, e.data as Uint8Array]));
    expect(new TextDecoder().decode(byPath.get("src/a.ts"))).toBe("unsaved a\n");
    expect(new TextDecoder().decode(byPath.get("new.md"))).toBe("# never saved\n");
    expect([...byPath.get("logo.bin")!]).toEqual([0, 1, 2, 255]);
    expect(byPath.has(".git/HEAD")).toBe(false);
  });
});
