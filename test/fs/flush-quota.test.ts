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
