import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { deleteWorkspaceStorage, openLightningFs, workspaceDbNames } from "../../lib/fs/lightning";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { sleep, uniqueName } from "./backends";

describe("lightning-fs storage", () => {
  it("names the databases lightning-fs creates", () => {
    expect(workspaceDbNames("abc")).toEqual(["tabula-ws-abc", "tabula-ws-abc_lock"]);
    expect(() => workspaceDbNames("")).toThrow();
  });

  it("opens a workspace fs and deletes its storage", async () => {
    const id = uniqueName("del");
    const fs = openLightningFs(id);
    const ws = new WorkspaceFs({ fs, dir: "/" });
    await ws.writeFile("a.txt", "hello");
    await ws.flush();
    const names = async () => (await indexedDB.databases()).map((d) => d.name);
    // Without navigator.locks (Node) the mutex lives in the _lock database: both exist.
    expect(await names()).toEqual(expect.arrayContaining(workspaceDbNames(id)));
    await sleep(700); // let lightning-fs go idle and close its connections
    await deleteWorkspaceStorage(id, indexedDB);
    const left = await names();
    for (const n of workspaceDbNames(id)) expect(left).not.toContain(n);
    // A fresh open sees an empty workspace.
    const again = new WorkspaceFs({ fs: openLightningFs(id), dir: "/" });
    expect(await again.listFiles()).toEqual([]);
  });

  it("flush right after opening, before any other call, waits for lightning-fs to start instead of throwing", async () => {
    const ws = new WorkspaceFs({ fs: openLightningFs(uniqueName("flush")), dir: "/" });
    await expect(ws.flush()).resolves.toBeUndefined();
    await ws.writeFile("a.txt", "kept");
    await ws.flush();
    expect(new TextDecoder().decode(await ws.readFile("a.txt"))).toBe("kept");
  });
});
