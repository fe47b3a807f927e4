import { afterEach, describe, expect, it } from "vitest";
import fs from "node:fs";
import path from "node:path";
import { DocumentStore, isDirty } from "../../lib/editor/documents";
import { tempWorkspace } from "../helpers/node-workspace";

describe("document store", () => {
  let cleanup = () => {};
  afterEach(() => cleanup());

  it("opens, edits, saves through lib/fs (journal sees it), and closes", async () => {
    const ws = tempWorkspace({ "a.txt": "one" });
    cleanup = ws.cleanup;
    const store = new DocumentStore(ws.wsfs);
    const seq = ws.wsfs.journal.seq;
    const doc = await store.open("a.txt");
    expect(doc.text).toBe("one");
    store.setText("a.txt", "two");
    expect(isDirty(store.get("a.txt")!)).toBe(true);
    await store.save("a.txt");
    expect(isDirty(store.get("a.txt")!)).toBe(false);
    expect(fs.readFileSync(path.join(ws.dir, "a.txt"), "utf8")).toBe("two");
    expect([...ws.wsfs.journal.dirtySince(seq)!]).toEqual(["a.txt"]);
    store.close("a.txt");
    expect(store.list()).toEqual([]);
  });

  it("keeps unsaved edits when the file changes on disk, and reloads clean documents", async () => {
    const ws = tempWorkspace({ "a.txt": "one", "b.txt": "bee" });
    cleanup = ws.cleanup;
    const store = new DocumentStore(ws.wsfs);
    await store.open("a.txt");
    await store.open("b.txt");
    store.setText("a.txt", "my edit");
    fs.writeFileSync(path.join(ws.dir, "a.txt"), "changed elsewhere, longer");
    fs.writeFileSync(path.join(ws.dir, "b.txt"), "new bee content");
    await store.refresh("all");
    expect(store.get("a.txt")).toMatchObject({ text: "my edit", conflict: true });
    expect(store.get("b.txt")).toMatchObject({ text: "new bee content", savedText: "new bee content" });
  });

  it("binary files open read-only with a notice and cannot be saved", async () => {
    const ws = tempWorkspace({ "img.png": new Uint8Array([0x89, 0x50, 0, 0, 1]) });
    cleanup = ws.cleanup;
    const store = new DocumentStore(ws.wsfs);
    const doc = await store.open("img.png");
    expect(doc.readOnly).toBe(true);
    expect(doc.notice).toMatch(/Binary file/);
    store.setText("img.png", "x");
    expect(store.get("img.png")!.text).toBe(doc.text);
  });

  it("carries tabs along a rename of their folder", async () => {
    const ws = tempWorkspace({ "d/a.txt": "a" });
    cleanup = ws.cleanup;
    const store = new DocumentStore(ws.wsfs);
    await store.open("d/a.txt");
    store.renamed("d", "e");
    expect(store.list().map((d) => d.path)).toEqual(["e/a.txt"]);
    expect(store.active).toBe("e/a.txt");
  });
});

describe("document store: edits made outside a tab", () => {
  it("adopt opens the file as an unsaved tab without switching to it", async () => {
    const ws = tempWorkspace({ "a.ts": "export const a = 1;", "b.ts": "import { a } from './a';" });
    try {
      const store = new DocumentStore(ws.wsfs);
      await store.open("b.ts");
      await store.adopt("a.ts", "export const renamed = 1;");
      expect(store.active).toBe("b.ts");
      const doc = store.get("a.ts")!;
      expect([doc.savedText, doc.text, isDirty(doc)]).toEqual(["export const a = 1;", "export const renamed = 1;", true]);
      await store.adopt("a.ts", "export const again = 1;");
      expect(store.list().map((d) => d.path)).toEqual(["b.ts", "a.ts"]);
      expect(store.get("a.ts")!.text).toBe("export const again = 1;");
    } finally {
      ws.cleanup();
    }
  });
});
