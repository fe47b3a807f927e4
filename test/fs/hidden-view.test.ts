/**
 * The hiding file view (lib/fs/hidden-view) on both backends: what a hidden path looks like
 * through it (reads refused with the policy's name, stats refused, listings without it, writes,
 * moves and deletes refused), symlinks that lead to one, folders that hold one, composition
 * with readOnlyView, and the full view left as it was.
 */
import { afterEach, describe, expect, it } from "vitest";
import { ChangeJournal, HiddenPathSet, WorkspaceFs, type HiddenPathRule } from "../../lib/fs";
import { envFilesHidden } from "../../lib/plugins/builtin/env-blocker";
import { backends, type Backend } from "./backends";

const SECRET = "API_KEY=s3cr3t-value\n";

for (const [name, make] of backends) {
  describe(`hiding view on ${name}`, () => {
    let b: Backend;
    afterEach(async () => b && (await b.cleanup()));

    async function setup() {
      b = await make();
      const full = new WorkspaceFs({ fs: b.fs, dir: b.dir, journal: new ChangeJournal() });
      await full.writeFile(".env", SECRET);
      await full.writeFile("sub/.env.local", SECRET);
      await full.writeFile(".env.example", "API_KEY=\n");
      await full.writeFile("src/a.ts", "export {};\n");
      const set = new HiddenPathSet();
      const off = set.add(envFilesHidden);
      return { full, view: full.hidingView(set), set, off };
    }

    it("reads of a hidden file fail with a policy error naming env-blocker; templates read", async () => {
      const { view } = await setup();
      await expect(view.readText(".env")).rejects.toThrow(/hidden from the agent by env-blocker/);
      await expect(view.readText("sub/.env.local")).rejects.toMatchObject({ code: "EACCES", policy: "env-blocker" });
      await expect(view.readText("./sub/../.env")).rejects.toThrow(/env-blocker/);
      await expect(view.readText(b.dir + "/.env")).rejects.toThrow(/env-blocker/);
      expect(await view.readText(".env.example")).toBe("API_KEY=\n");
    });

    it("stat refuses, listings leave hidden entries out, the full view is unchanged", async () => {
      const { full, view } = await setup();
      await expect(view.stat(".env")).rejects.toMatchObject({ code: "EACCES" });
      expect((await view.readdir("")).map((e) => e.name)).toEqual(["src", "sub", ".env.example"]);
      expect(await view.readdir("sub")).toEqual([]);
      expect(await view.listFiles("")).toEqual([".env.example", "src/a.ts"]);
      expect(await full.listFiles("")).toEqual([".env", ".env.example", "src/a.ts", "sub/.env.local"]);
      expect(await full.readText(".env")).toBe(SECRET);
    });

    it("writes, overwrites, deletes and moves of hidden files are refused", async () => {
      const { full, view } = await setup();
      await expect(view.writeFile(".env", "x")).rejects.toThrow(/env-blocker/);
      await expect(view.writeFile("new/.env.production", "x")).rejects.toThrow(/env-blocker/);
      await expect(view.remove(".env")).rejects.toThrow(/env-blocker/);
      await expect(view.rename(".env", "leak.txt")).rejects.toThrow(/env-blocker/);
      await expect(view.rename("src/a.ts", ".env.local")).rejects.toThrow(/env-blocker/);
      // A folder holding a hidden file cannot be moved (its secret would go with it)…
      await expect(view.rename("sub", "moved")).rejects.toThrow(/sub\/\.env\.local is hidden/);
      // …nor deleted with it: the visible part goes, the hidden file stays.
      await expect(view.remove("sub")).rejects.toThrow();
      expect(await full.readText("sub/.env.local")).toBe(SECRET);
      expect(await full.readText(".env")).toBe(SECRET);
      expect(await full.exists("new")).toBe(false);
    });

    it("letter case does not matter; .git/objects is hidden too", async () => {
      const { full, view } = await setup();
      await full.writeFile("conf/.ENV.Production", SECRET);
      await expect(view.readText("conf/.ENV.Production")).rejects.toThrow(/env-blocker/);
      expect(await view.readdir("conf")).toEqual([]);
      await b.fs.promises.mkdir(b.dir + "/.git");
      await b.fs.promises.mkdir(b.dir + "/.git/objects");
      await b.fs.promises.writeFile(b.dir + "/.git/objects/ab", "zlib");
      await b.fs.promises.writeFile(b.dir + "/.git/HEAD", "ref: refs/heads/main\n");
      expect((await view.readdir(".git")).map((e) => e.name)).toEqual(["HEAD"]);
      await expect(view.readFile(".git/objects/ab")).rejects.toThrow(/env-blocker/);
    });

    it("switching the rule off shows the files again", async () => {
      const { view, off } = await setup();
      off();
      expect(await view.readText(".env")).toBe(SECRET);
    });

    it("composes with readOnlyView either way round", async () => {
      const { full, set } = await setup();
      for (const v of [full.hidingView(set).readOnlyView(), full.readOnlyView().hidingView(set)]) {
        expect(v.readOnly).toBe(true);
        await expect(v.readText(".env")).rejects.toThrow(/env-blocker/);
        await expect(v.writeFile("src/a.ts", "x")).rejects.toMatchObject({ code: "EROFS" });
        expect(await v.readText("src/a.ts")).toBe("export {};\n");
      }
    });

    it("two hiding views compose: either rule hides", async () => {
      const { full, set } = await setup();
      const other: HiddenPathRule = { policy: "test-policy", reason: "a test", test: (rel) => rel === "src" };
      const extra = new HiddenPathSet();
      extra.add(other);
      const v = full.hidingView(set).hidingView(extra);
      await expect(v.readText(".env")).rejects.toThrow(/env-blocker/);
      await expect(v.readText("src/a.ts")).rejects.toThrow(/test-policy/);
      expect((await v.readdir("")).map((e) => e.name)).toEqual(["sub", ".env.example"]);
    });

    it("symlinks that lead to a hidden file are hidden, and none can be made", async () => {
      const { full, view } = await setup();
      const raw = b.fs.promises;
      if (!raw.symlink) return;
      // Made by the user (full view): a link to .env, a chain of links, a link to the folder.
      await raw.symlink(".env", b.dir + "/link");
      await raw.symlink("link", b.dir + "/chain");
      await raw.symlink("sub", b.dir + "/subdir");
      await raw.symlink(b.dir + "/.env", b.dir + "/abslink");
      for (const p of ["link", "chain", "abslink"]) {
        await expect(view.readText(p), p).rejects.toThrow(/env-blocker/);
        await expect(view.stat(p), p).rejects.toThrow(/env-blocker/);
      }
      await expect(view.readText("subdir/.env.local")).rejects.toThrow(/env-blocker/);
      const names = (await view.readdir("")).map((e) => e.name);
      expect(names).toContain("subdir");
      for (const n of ["link", "chain", "abslink", ".env"]) expect(names).not.toContain(n);
      // A chain longer than the view follows is not followed at all.
      let prev = ".env";
      for (let i = 0; i < 45; i++) {
        await raw.symlink(prev, `${b.dir}/hop${i}`);
        prev = `hop${i}`;
      }
      await expect(view.readText(prev)).rejects.toMatchObject({ code: expect.stringMatching(/^(ELOOP|EACCES)$/) });
      expect((await view.readdir("")).map((e) => e.name).filter((n) => n.startsWith("hop"))).toEqual([]);
      // The agent cannot make a new way to a hidden file.
      const vfs = view.fs.promises;
      await expect(vfs.symlink!(".env", b.dir + "/mine")).rejects.toThrow(/env-blocker/);
      await expect(vfs.symlink!("../.env", b.dir + "/src/mine")).rejects.toThrow(/env-blocker/);
      expect(await full.exists("mine")).toBe(false);
    });
  });
}
