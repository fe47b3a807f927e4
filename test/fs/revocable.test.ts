import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { revocableFs } from "../../lib/fs/revocable";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import type { IsoFs } from "../../lib/fs/types";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe("revocable file system", () => {
  it("after revoking writes, nothing reaches the disk and reads still work; after all, reads fail too", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-revocable-"));
    dirs.push(dir);
    fs.writeFileSync(path.join(dir, "a.txt"), "kept");
    const r = revocableFs(fs as unknown as IsoFs);
    const wsfs = new WorkspaceFs({ fs: r.fs, dir });
    await wsfs.writeFile("b.txt", "before");
    r.revoke("writes", "This workspace was deleted in another tab");
    await expect(wsfs.writeFile("c.txt", "after")).rejects.toThrow(/c\.txt/);
    await expect(wsfs.remove("a.txt")).rejects.toThrow();
    await expect(r.fs.promises.mkdir(path.join(dir, "d"))).rejects.toMatchObject({ code: "EROFS", message: expect.stringContaining("deleted in another tab") });
    expect(fs.existsSync(path.join(dir, "c.txt"))).toBe(false);
    expect(fs.existsSync(path.join(dir, "a.txt"))).toBe(true);
    expect(await wsfs.readText("a.txt")).toBe("kept");
    r.revoke("all", "gone");
    await expect(r.fs.promises.readFile(path.join(dir, "a.txt"))).rejects.toMatchObject({ code: "EROFS" });
    // Revoking less afterwards does not reopen anything.
    r.revoke("writes", "x");
    expect(r.revoked).toBe("all");
  });

  it("a group write (writeFiles) is a write: refused once writes are revoked", async () => {
    const written: string[][] = [];
    const inner = {
      promises: {
        ...fs.promises,
        writeFiles: async (files: readonly { path: string; data: Uint8Array }[]) => {
          written.push(files.map((f) => f.path));
        },
      },
    } as unknown as IsoFs;
    const r = revocableFs(inner);
    await r.fs.promises.writeFiles!([{ path: "/x/a", data: new Uint8Array(1) }]);
    expect(written).toEqual([["/x/a"]]);
    r.revoke("writes", "cut off");
    await expect(r.fs.promises.writeFiles!([{ path: "/x/b", data: new Uint8Array(1) }])).rejects.toMatchObject({ code: "EROFS" });
    expect(written).toHaveLength(1);
  });

  it("a tab cut off from writing may still flush what is in memory, until everything is revoked", async () => {
    let flushed = 0;
    const inner = { promises: { ...(fs.promises as unknown as IsoFs["promises"]), flush: async () => void flushed++ } } as IsoFs;
    const r = revocableFs(inner);
    r.revoke("writes", "deleted");
    await r.fs.promises.flush!();
    expect(flushed).toBe(1);
    r.revoke("all", "deleted");
    await expect(r.fs.promises.flush!()).rejects.toMatchObject({ code: "EROFS" });
    expect(flushed).toBe(1);
  });
});
