import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openKeyValueStore } from "../../lib/storage/idb-kv";
import { WorkspaceRegistry, isWorkspaceId, newWorkspaceId, validateWorkspaceName, type WorkspaceMeta } from "../../lib/workspaces/registry";
import { WorkspaceManager } from "../../lib/workspaces/manager";
import type { IsoFs } from "../../lib/fs";
import { execFileSync } from "node:child_process";
import { statusAll, log } from "../../lib/git";
import { randomBytes } from "node:crypto";

/** A manager whose workspaces are temp folders on node:fs (each id a folder), registry in fake-indexeddb. */
function nodeManager() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-mgr-"));
  const deleted: string[] = [];
  let clock = 1000;
  const registry = new WorkspaceRegistry(openKeyValueStore<WorkspaceMeta>(indexedDB, `reg-${Math.random()}`, "workspaces"));
  const openFs = (): IsoFs => fs as unknown as IsoFs;
  const workspaceDir = (id: string) => {
    fs.mkdirSync(path.join(root, id), { recursive: true });
    return path.join(root, id);
  };
  const manager = new WorkspaceManager({
    registry,
    openFs,
    workspaceDir,
    deleteStorage: async (id) => {
      deleted.push(id);
      fs.rmSync(path.join(root, id), { recursive: true, force: true });
    },
    randomBytes: (b) => {
      b.set(randomBytes(b.length));
      return b;
    },
    now: () => (clock += 1000),
  });
  return { manager, root, deleted, workspaceDir };
}

describe("workspace registry", () => {
  it("validates names and ids", () => {
    expect(validateWorkspaceName("  My app ")).toBe("My app");
    expect(() => validateWorkspaceName("   ")).toThrow(/needs a name/);
    expect(() => validateWorkspaceName("x".repeat(81))).toThrow(/at most/);
    const id = newWorkspaceId((b) => b.fill(7));
    expect(isWorkspaceId(id)).toBe(true);
    expect(isWorkspaceId("../etc")).toBe(false);
  });
});

describe("workspace manager", () => {
  it("creates a sample workspace as a git repo on main with one commit and a clean status", async () => {
    const { manager, workspaceDir } = nodeManager();
    const meta = await manager.create("Sample", { kind: "sample" });
    expect(meta.fileCount).toBeGreaterThan(3);
    const repo = { fs: fs as unknown as IsoFs, dir: workspaceDir(meta.id) };
    expect(await statusAll(repo)).toEqual([]);
    expect(execFileSync("git", ["status", "--porcelain"], { cwd: repo.dir }).toString()).toBe("");
    const commits = await log(repo);
    expect(commits).toHaveLength(1);
    expect((await manager.list()).map((m) => m.name)).toEqual(["Sample"]);
  });

  it("lists most recently opened first, renames, and deletes storage with the entry", async () => {
    const { manager, deleted } = nodeManager();
    const a = await manager.create("A", { kind: "empty" });
    const b = await manager.create("B", { kind: "empty" });
    expect((await manager.list()).map((m) => m.name)).toEqual(["B", "A"]);
    await manager.open(a.id);
    expect((await manager.list()).map((m) => m.name)).toEqual(["A", "B"]);
    await manager.rename(b.id, "Renamed");
    await expect(manager.rename(b.id, "")).rejects.toThrow(/needs a name/);
    await manager.remove(a.id);
    expect(deleted).toContain(a.id);
    expect((await manager.list()).map((m) => m.name)).toEqual(["Renamed"]);
    await expect(manager.open(a.id)).rejects.toThrow(/does not exist/);
  });

  it("a failed import leaves no workspace behind", async () => {
    const { manager, deleted } = nodeManager();
    await expect(manager.create("Bad", { kind: "zip", entries: [{ path: "ok.txt", data: "x" }, { path: "../x", data: "y" }] })).rejects.toThrow(/escape/i);
    expect(await manager.list()).toEqual([]);
    expect(deleted).toHaveLength(1);
  });

  it("a clone URL that is not http(s) is refused before any request", async () => {
    const { manager } = nodeManager();
    await expect(manager.create("C", { kind: "clone", url: "ftp://example.com/x.git", proxyEndpoint: "http://127.0.0.1:1/api/git-proxy" })).rejects.toThrow(/Only http/);
    expect(await manager.list()).toEqual([]);
  });
});
