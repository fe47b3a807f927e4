import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ChangeJournal } from "../../lib/fs/journal";
import { WorkspaceStorageError } from "../../lib/fs/errors";
import { WorkspacePathError } from "../../lib/fs/paths";
import type { IsoFs } from "../../lib/fs/types";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { backends, idbKeys, lightningBackend, sleep, type Backend } from "./backends";

const text = (b: Uint8Array) => new TextDecoder().decode(b);

async function errorOf(p: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}

/** Wrap an IsoFs so its writeFile fails on temp files after writing part of them, as an
 * IndexedDB write does when the quota runs out mid-save. */
function failingWrites(fs: IsoFs, makeError: () => Error): IsoFs & { calls: string[] } {
  const calls: string[] = [];
  const promises = Object.create(fs.promises) as IsoFs["promises"];
  promises.writeFile = async (path: string, data: Uint8Array | string, opts?: unknown) => {
    calls.push(path);
    await fs.promises.writeFile(path, typeof data === "string" ? data.slice(0, 1) : data.slice(0, 1), opts);
    throw makeError();
  };
  for (const key of ["readFile", "unlink", "readdir", "mkdir", "rmdir", "stat", "lstat", "rename", "chmod", "flush"] as const) {
    const fn = (fs.promises as unknown as Record<string, unknown>)[key];
    if (typeof fn === "function") (promises as unknown as Record<string, unknown>)[key] = fn.bind(fs.promises);
  }
  return { promises, calls };
}

function quotaError(): Error {
  const e = new Error("The quota has been exceeded.");
  e.name = "QuotaExceededError";
  return e;
}

describe.each(backends)("WorkspaceFs on %s", (_name, makeBackend) => {
  let b: Backend;
  let ws: WorkspaceFs;
  let journal: ChangeJournal;

  beforeEach(async () => {
    b = await makeBackend();
    journal = new ChangeJournal();
    ws = new WorkspaceFs({ fs: b.fs, dir: b.dir, journal });
  });
  afterEach(async () => {
    await b.cleanup();
  });

  it("writes, reads, stats and lists", async () => {
    await ws.writeFile("src/app.ts", "export {};\n");
    await ws.writeFile(b.dir + "/README.md", new Uint8Array([104, 105]));
    await ws.writeFile("ünï cødé/文件.txt", "unicode");
    await ws.mkdir("empty/dir");
    expect(await ws.readText("src/app.ts")).toBe("export {};\n");
    expect(text(await ws.readFile("README.md"))).toBe("hi");
    expect(await ws.readFile(b.dir + "/README.md")).toEqual(new Uint8Array([104, 105]));
    expect(await ws.readText("ünï cødé/文件.txt")).toBe("unicode");
    expect(await ws.stat("src/app.ts")).toMatchObject({ type: "file", size: 11 });
    expect((await ws.stat("src"))?.type).toBe("dir");
    expect(await ws.stat("missing")).toBeNull();
    expect(await ws.exists("README.md")).toBe(true);
    expect(await ws.exists("nope/nope")).toBe(false);
    expect(await ws.readdir("")).toEqual([
      { name: "empty", type: "dir" },
      { name: "src", type: "dir" },
      { name: "ünï cødé", type: "dir" },
      { name: "README.md", type: "file" },
    ]);
    expect(await ws.listFiles()).toEqual(["README.md", "src/app.ts", "ünï cødé/文件.txt"]);
    expect(await ws.listFiles("src")).toEqual(["src/app.ts"]);
    expect(await ws.listFiles("README.md")).toEqual(["README.md"]);
    expect(await ws.listFiles("missing")).toEqual([]);
  });

  it("keeps a byte-order mark through readText and writeFile", async () => {
    await ws.writeFile("bom.txt", new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
    const t = await ws.readText("bom.txt");
    expect(t).toBe("\uFEFFa");
    await ws.writeFile("bom2.txt", t);
    expect(await ws.readFile("bom2.txt")).toEqual(new Uint8Array([0xef, 0xbb, 0xbf, 0x61]));
  });

  it("skips .git in listFiles unless asked", async () => {
    await b.fs.promises.mkdir(b.dir + "/.git");
    await b.fs.promises.writeFile(b.dir + "/.git/HEAD", "ref: refs/heads/main\n");
    await ws.writeFile("a.txt", "a");
    expect(await ws.listFiles()).toEqual(["a.txt"]);
    expect(await ws.listFiles("", { includeGit: true })).toEqual([".git/HEAD", "a.txt"]);
    expect((await ws.readdir("")).map((e) => e.name)).toEqual([".git", "a.txt"]);
  });

  it("confines paths to the workspace", async () => {
    expect((await errorOf(ws.readFile("../x"))).code).toBe("ESCAPE");
    expect(await errorOf(ws.readFile("../x"))).toBeInstanceOf(WorkspacePathError);
    expect((await errorOf(ws.writeFile("a/../../x", "x"))).code).toBe("ESCAPE");
    expect((await errorOf(ws.readFile("/etc/passwd"))).code).toBe("ESCAPE");
    expect((await errorOf(ws.writeFile(b.dir + "-evil/x", "x"))).code).toBe("ESCAPE");
    expect((await errorOf(ws.writeFile("a\0b", "x"))).code).toBe("NUL");
    expect((await errorOf(ws.stat("..\\..\\etc"))).code).toBe("ESCAPE");
  });

  it("refuses writes into .git with GITDIR", async () => {
    await b.fs.promises.mkdir(b.dir + "/.git");
    for (const op of [
      () => ws.writeFile(".git/config", "x"),
      () => ws.writeFile(".GIT/hooks/pre-commit", "x"),
      () => ws.writeFile(b.dir + "/.git/HEAD", "x"),
      () => ws.writeFile("a/../.git/x", "x"),
      () => ws.mkdir(".git/x"),
      () => ws.remove(".git"),
      () => ws.rename(".git", "git-backup"),
    ]) {
      const err = await errorOf(op());
      expect(err.code).toBe("GITDIR");
      expect(err.message).toMatch(/Writes into \.git\/ are not allowed/);
    }
    await ws.writeFile("x.txt", "x");
    expect((await errorOf(ws.rename("x.txt", ".git/x.txt"))).code).toBe("GITDIR");
    // Reading .git is fine (the UI may show it).
    await b.fs.promises.writeFile(b.dir + "/.git/HEAD", "ref: refs/heads/main\n");
    expect(await ws.readText(".git/HEAD")).toBe("ref: refs/heads/main\n");
  });

  it("refuses to delete or overwrite the workspace root", async () => {
    expect((await errorOf(ws.remove(""))).code).toBe("INVALID");
    expect((await errorOf(ws.remove(b.dir))).code).toBe("INVALID");
    expect((await errorOf(ws.remove("a/.."))).code).toBe("INVALID");
    expect((await errorOf(ws.writeFile("", "x"))).code).toBe("INVALID");
  });

  it("read-only view refuses every mutation with EROFS but reads", async () => {
    await ws.writeFile("a.txt", "a");
    const ro = ws.readOnlyView();
    expect(ro.readOnly).toBe(true);
    expect(ro.journal).toBe(journal);
    expect(ro.fs).toBe(b.fs);
    expect(await ro.readText("a.txt")).toBe("a");
    for (const op of [() => ro.writeFile("a.txt", "b"), () => ro.mkdir("d"), () => ro.remove("a.txt"), () => ro.rename("a.txt", "b.txt")]) {
      expect((await errorOf(op())).code).toBe("EROFS");
    }
    expect(await ws.readText("a.txt")).toBe("a");
  });

  it("sees external writes through the raw fs (cache validated by stat)", async () => {
    let rawReads = 0;
    const counting: IsoFs = {
      promises: Object.assign(Object.create(b.fs.promises) as IsoFs["promises"], {
        readFile: (p: string, o?: unknown) => {
          rawReads++;
          return b.fs.promises.readFile(p, o);
        },
        stat: (p: string) => b.fs.promises.stat(p),
        lstat: (p: string) => b.fs.promises.lstat(p),
      }),
    };
    const cws = new WorkspaceFs({ fs: counting, dir: b.dir });
    await b.fs.promises.writeFile(b.dir + "/a.txt", "one");
    await sleep(80); // older than the cache's racy-clean margin
    expect(await cws.readText("a.txt")).toBe("one");
    expect(await cws.readText("a.txt")).toBe("one");
    expect(rawReads).toBe(1); // second read served from the cache

    await b.fs.promises.writeFile(b.dir + "/a.txt", "two"); // same size, new mtime
    expect(await cws.readText("a.txt")).toBe("two");
    await b.fs.promises.writeFile(b.dir + "/a.txt", "three!"); // new size
    expect(await cws.readText("a.txt")).toBe("three!");

    // Writes through WorkspaceFs invalidate directly.
    await sleep(80);
    expect(await cws.readText("a.txt")).toBe("three!");
    await cws.writeFile("a.txt", "four");
    expect(await cws.readText("a.txt")).toBe("four");
    await cws.rename("a.txt", "b.txt");
    await cws.writeFile("a.txt", "five");
    expect(await cws.readText("a.txt")).toBe("five");
    expect(await cws.readText("b.txt")).toBe("four");
  });

  it("records journal events for write, mkdir, rename and delete", async () => {
    const seen: string[] = [];
    journal.subscribe((e) => seen.push(`${e.kind}:${e.from ? e.from + "->" : ""}${e.path}:${e.origin}`));
    await ws.writeFile("a.txt", "a");
    const mark = journal.seq;
    await ws.writeFile("a.txt", "b", { origin: "agent" });
    await ws.mkdir("d/e");
    await ws.mkdir("d/e"); // exists: no event
    await ws.writeFile("d/e/f.txt", "f");
    await ws.rename("d", "moved/d2");
    await ws.rename("a.txt", "b.txt", { origin: "agent" });
    await ws.remove("moved");
    expect(seen).toEqual([
      "write:a.txt:user",
      "write:a.txt:agent",
      "mkdir:d/e:user",
      "write:d/e/f.txt:user",
      "rename:d->moved/d2:user",
      "rename:a.txt->b.txt:agent",
      "delete:moved:user",
    ]);
    expect(journal.dirtySince(mark)).toEqual(new Set(["a.txt", "d/e", "d/e/f.txt", "d", "moved/d2", "b.txt", "moved"]));
    expect(await ws.listFiles()).toEqual(["b.txt"]);
    expect(await ws.exists("moved")).toBe(false);
  });

  it("rename refuses to overwrite, to move into itself, or a missing source", async () => {
    await ws.writeFile("a.txt", "a");
    await ws.writeFile("b.txt", "b");
    await ws.writeFile("d/x.txt", "x");
    expect((await errorOf(ws.rename("a.txt", "b.txt"))).code).toBe("EEXIST");
    expect((await errorOf(ws.rename("d", "d/sub"))).code).toBe("INVALID");
    expect((await errorOf(ws.rename("nope", "z"))).code).toBe("ENOENT");
    expect(await ws.readText("b.txt")).toBe("b");
    await ws.rename("a.txt", "a.txt"); // no-op
    expect(await ws.readText("a.txt")).toBe("a");
  });

  it("remove deletes files and whole trees; missing → ENOENT", async () => {
    await ws.writeFile("t/a/b/c.txt", "c");
    await ws.writeFile("t/a/d.txt", "d");
    await ws.mkdir("t/empty");
    await ws.remove("t");
    expect(await ws.exists("t")).toBe(false);
    expect((await errorOf(ws.remove("t"))).code).toBe("ENOENT");
  });

  it("writeFile refuses a directory target and a file in the way of parents", async () => {
    await ws.mkdir("d");
    expect((await errorOf(ws.writeFile("d", "x"))).code).toBe("EISDIR");
    await ws.writeFile("f", "x");
    expect((await errorOf(ws.writeFile("f/g", "x"))).code).toBe("ENOTDIR");
    expect((await errorOf(ws.mkdir("f"))).code).toBe("EEXIST");
  });

  it("keeps an existing file's mode unless one is given", async () => {
    await b.fs.promises.writeFile(b.dir + "/run.sh", "#!/bin/sh\n", { mode: 0o755 });
    await b.fs.promises.chmod!(b.dir + "/run.sh", 0o755);
    await ws.writeFile("run.sh", "#!/bin/sh\necho hi\n");
    expect((await ws.stat("run.sh"))?.mode).toBe(0o755);
    await ws.writeFile("run.sh", "#!/bin/sh\n", { mode: 0o644 });
    expect((await ws.stat("run.sh"))?.mode).toBe(0o644);
    await ws.writeFile("new.sh", "x", { mode: 0o700 });
    expect((await ws.stat("new.sh"))?.mode).toBe(0o700);
  });

  it("a quota failure leaves the previous version intact and no temp file", async () => {
    await ws.writeFile("dir/doc.txt", "precious original");
    const seqBefore = journal.seq;
    const failing = failingWrites(b.fs, quotaError);
    const fws = new WorkspaceFs({ fs: failing, dir: b.dir, journal });
    const err = await errorOf(fws.writeFile("dir/doc.txt", "new contents that do not fit"));
    expect(err).toBeInstanceOf(WorkspaceStorageError);
    expect(err.code).toBe("QUOTA");
    expect(err.message).toBe("Storage is full: dir/doc.txt was not saved; your previous version is intact");
    expect((err as { cause?: Error }).cause?.name).toBe("QuotaExceededError");
    expect(failing.calls).toHaveLength(1);
    expect(failing.calls[0]).toMatch(/\/dir\/\.doc\.txt\.tabula-tmp-[a-z0-9]+$/);
    expect(await ws.readText("dir/doc.txt")).toBe("precious original");
    expect((await ws.readdir("dir")).map((e) => e.name)).toEqual(["doc.txt"]);
    expect(journal.seq).toBe(seqBefore);

    // A new file that fails is simply not created.
    expect((await errorOf(fws.writeFile("dir/new.txt", "x"))).code).toBe("QUOTA");
    expect(await ws.exists("dir/new.txt")).toBe(false);
    expect((await ws.readdir("dir")).map((e) => e.name)).toEqual(["doc.txt"]);
  });

  it("other storage failures are reported as IO with the original intact", async () => {
    await ws.writeFile("doc.txt", "original");
    const fws = new WorkspaceFs({ fs: failingWrites(b.fs, () => new Error("disk on fire")), dir: b.dir });
    const err = await errorOf(fws.writeFile("doc.txt", "x"));
    expect(err).toBeInstanceOf(WorkspaceStorageError);
    expect(err.code).toBe("IO");
    expect(err.message).toMatch(/disk on fire/);
    expect(await ws.readText("doc.txt")).toBe("original");
  });

  it("concurrent saves of one file all succeed and the last one wins", async () => {
    await Promise.all(Array.from({ length: 10 }, (_, i) => ws.writeFile("c.txt", `v${i}`)));
    expect(await ws.readText("c.txt")).toBe("v9");
    expect(await ws.listFiles()).toEqual(["c.txt"]);
  });
});

describe("WorkspaceFs on lightning-fs storage", () => {
  it("with dir \"/\" a leading slash is just the workspace root", async () => {
    const b = await lightningBackend("/");
    const ws = new WorkspaceFs({ fs: b.fs, dir: "/" });
    await ws.writeFile("/src/a.txt", "a");
    expect(await ws.readText("src/a.txt")).toBe("a");
    expect(await ws.listFiles("/")).toEqual(["src/a.txt"]);
    expect((await errorOf(ws.readFile("/../x"))).code).toBe("ESCAPE");
  });

  it("replacing a file does not leak the old bytes in IndexedDB", async () => {
    const b = await lightningBackend("/");
    const ws = new WorkspaceFs({ fs: b.fs, dir: "/" });
    for (let i = 0; i < 5; i++) await ws.writeFile("a.txt", `version ${i}`);
    await ws.flush();
    const keys = await idbKeys(b.dbName);
    expect(keys.filter((k) => k !== "!root")).toHaveLength(1);
    expect(await ws.readText("a.txt")).toBe("version 4");
  });

  it("(why) lightning-fs's own rename over a file leaks the replaced inode", async () => {
    const b = await lightningBackend("/");
    const p = b.fs.promises;
    await p.writeFile("/a.txt", "old");
    await p.writeFile("/b.txt", "new");
    await p.rename("/b.txt", "/a.txt");
    await p.flush!();
    const keys = await idbKeys(b.dbName);
    expect(keys.filter((k) => k !== "!root")).toHaveLength(2); // "old" is unreachable garbage
  });

  it("persists across instances after flush", async () => {
    const b = await lightningBackend("/proj");
    const ws = new WorkspaceFs({ fs: b.fs, dir: "/proj" });
    await ws.writeFile("src/a.txt", "persisted");
    await ws.flush();
    const { default: LightningFS } = await import("@isomorphic-git/lightning-fs");
    // Same database, new instance (as after a reload). Wait for the first one to release
    // its mutex (it deactivates after 500 ms idle).
    await sleep(700);
    const again = new LightningFS(b.dbName) as unknown as IsoFs;
    const ws2 = new WorkspaceFs({ fs: again, dir: "/proj" });
    expect(await ws2.readText("src/a.txt")).toBe("persisted");
  });
});
