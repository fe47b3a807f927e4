import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { WorkspaceFs, type IsoFs } from "../../lib/fs";

describe("flush on a full disk", () => {
  it("reports a QUOTA storage error in the user's terms", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-flush-"));
    const full = {
      promises: {
        ...fs.promises,
        flush: async () => {
          throw Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" });
        },
      },
    } as unknown as IsoFs;
    const wsfs = new WorkspaceFs({ fs: full, dir });
    await expect(wsfs.flush()).rejects.toMatchObject({ code: "QUOTA", message: expect.stringMatching(/^Storage is full/) });
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe("a full disk before the save even starts", () => {
  it("a quota error from the file system's own bookkeeping still reads as a QUOTA storage error, file intact", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-lstat-quota-"));
    fs.writeFileSync(path.join(dir, "a.txt"), "old");
    const failing = {
      promises: {
        ...fs.promises,
        // lightning-fs saves its superblock when it wakes up: that put fails first.
        lstat: async () => {
          throw Object.assign(new Error("The quota has been exceeded."), { name: "QuotaExceededError" });
        },
      },
    } as unknown as IsoFs;
    const wsfs = new WorkspaceFs({ fs: failing, dir });
    await expect(wsfs.writeFile("a.txt", "new")).rejects.toMatchObject({ code: "QUOTA", message: expect.stringContaining("previous version is intact") });
    expect(fs.readFileSync(path.join(dir, "a.txt"), "utf8")).toBe("old");
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
