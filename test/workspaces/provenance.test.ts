/** The registry records how each workspace was made, and only what was made here starts trusted. */
import "fake-indexeddb/auto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { zipSync, strToU8 } from "fflate";
import { openKeyValueStore } from "../../lib/storage/idb-kv";
import { WorkspaceRegistry, type WorkspaceMeta } from "../../lib/workspaces/registry";
import { WorkspaceManager } from "../../lib/workspaces/manager";
import { readZip } from "../../lib/workspaces/zip";
import { trustedByProvenance } from "../../lib/workspaces/provenance";
import type { IsoFs } from "../../lib/fs";

const root = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-prov-"));
afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

const manager = new WorkspaceManager({
  registry: new WorkspaceRegistry(openKeyValueStore<WorkspaceMeta>(indexedDB, `reg-${Math.random()}`, "workspaces")),
  openFs: () => fs as unknown as IsoFs,
  workspaceDir: (id) => {
    fs.mkdirSync(path.join(root, id), { recursive: true });
    return path.join(root, id);
  },
  deleteStorage: async (id) => fs.rmSync(path.join(root, id), { recursive: true, force: true }),
  randomBytes: (b) => {
    b.set(randomBytes(b.length));
    return b;
  },
  now: () => Date.now(),
});

describe("workspace provenance", () => {
  it("empty and sample workspaces are trusted; a zip or folder import is restricted, and the registry keeps the kind across opens", async () => {
    const zip = zipSync({ "p/.tabula/plugins/x.js": strToU8("export default {}"), "p/README.md": strToU8("# p") });
    const made = [
      await manager.create("Empty", { kind: "empty" }),
      await manager.create("Sample", { kind: "sample" }),
      await manager.create("Zip", { kind: "zip", entries: await readZip(zip), detail: "p.zip" }),
      await manager.create("Folder", { kind: "folder", entries: [{ path: ".tabula/hooks/TaskStart.js", data: "export default () => {}" }], detail: "p" }),
    ];
    expect(made.map((m) => [m.origin.kind, trustedByProvenance(m)])).toEqual([
      ["empty", true],
      ["sample", true],
      ["zip", false],
      ["folder", false],
    ]);
    const reopened = await manager.open(made[2]!.id);
    expect(reopened.meta.origin).toEqual({ kind: "zip", detail: "p.zip" });
    expect(trustedByProvenance(reopened.meta)).toBe(false);
  });
});
