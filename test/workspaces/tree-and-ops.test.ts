import { afterEach, describe, expect, it } from "vitest";
import { readTree, visibleRows, gitDecorations, allFilePaths, changedFiles, type TreeNode } from "../../lib/workspaces/tree-model";
import { deleteWithUndo, undoDelete, moveTarget, validateNewName, childPath } from "../../lib/workspaces/file-ops";
import { tempWorkspace } from "../helpers/node-workspace";

describe("tree model", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("reads folders first, skips .git, and flattens only expanded folders", async () => {
    const ws = tempWorkspace({ "z.txt": "", "a/b.txt": "", "a/c/d.txt": "", ".git/HEAD": "x" });
    cleanup = ws.cleanup;
    const tree = await readTree(ws.wsfs);
    expect(tree.map((n) => n.name)).toEqual(["a", "z.txt"]);
    expect(visibleRows(tree, new Set()).map((r) => r.node.path)).toEqual(["a", "z.txt"]);
    expect(visibleRows(tree, new Set(["a"])).map((r) => r.node.path)).toEqual(["a", "a/c", "a/b.txt", "z.txt"]);
    expect(allFilePaths(tree).sort()).toEqual(["a/b.txt", "a/c/d.txt", "z.txt"]);
  });

  it("colours folders with the strongest status inside them", () => {
    const deco = gitDecorations(
      [
        { path: "src/a.ts", index: " ", worktree: "M" },
        { path: "src/new/b.ts", index: "?", worktree: "?" },
      ],
      ["dist"],
    );
    expect(deco.get("src")).toBe("modified");
    expect(deco.get("src/new")).toBe("untracked");
    expect(deco.get("dist")).toBe("ignored");
  });

  it("the changed files of a review are files, not the folders coloured above them", () => {
    const deco = gitDecorations(
      [
        { path: "src/a.ts", index: " ", worktree: "M" },
        { path: "src/new/b.ts", index: "?", worktree: "?" },
        { path: "old/gone.ts", index: " ", worktree: "D" },
      ],
      ["dist"],
    );
    const file = (path: string): TreeNode => ({ name: path.split("/").pop()!, path, type: "file" });
    const tree: TreeNode[] = [
      { name: "src", path: "src", type: "dir", children: [file("src/a.ts"), { name: "new", path: "src/new", type: "dir", children: [file("src/new/b.ts")] }] },
      { name: "old", path: "old", type: "dir", children: [] },
      { name: "dist", path: "dist", type: "dir", children: [file("dist/x.js")] },
    ];
    expect(changedFiles(deco, tree).sort()).toEqual(["old/gone.ts", "src/a.ts", "src/new/b.ts"]);
  });

  it("delete keeps a snapshot that undo writes back byte for byte", async () => {
    const ws = tempWorkspace({ "d/x.bin": new Uint8Array([0, 1, 2]), "d/e/y.txt": "y" });
    cleanup = ws.cleanup;
    const snap = await deleteWithUndo(ws.wsfs, "d");
    expect(await ws.wsfs.exists("d")).toBe(false);
    await undoDelete(ws.wsfs, snap);
    expect(Array.from(await ws.wsfs.readFile("d/x.bin"))).toEqual([0, 1, 2]);
    expect(await ws.wsfs.readText("d/e/y.txt")).toBe("y");
  });

  it("validates names and move targets", () => {
    expect(() => validateNewName("  ")).toThrow();
    expect(() => validateNewName("..")).toThrow();
    expect(childPath("src", "a.ts")).toBe("src/a.ts");
    expect(() => childPath("src", "../../x")).toThrow();
    expect(moveTarget("a/b.txt", "c")).toBe("c/b.txt");
    expect(moveTarget("a/b.txt", "")).toBe("b.txt");
    expect(() => moveTarget("a", "a/b")).toThrow(/into itself/);
  });
});
