import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import { createCheckpoint } from "../../lib/checkpoints";
import type { IsoFs } from "../../lib/fs";
import { populateWorkspace } from "../../lib/workspaces/create";
import { exportZip } from "../../lib/workspaces/zip";
import { withoutUrlCredentials } from "../../lib/workspaces/import-history";
import type { ImportEntry } from "../../lib/workspaces/import-entries";
import { native, tempDir } from "../git/remote-helpers";
import { tempWorkspace } from "../helpers/node-workspace";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Every file under `dir`, .git included, as the folder picker or an archive would hand them over. */
function entriesOf(dir: string): ImportEntry[] {
  const out: ImportEntry[] = [];
  const walk = (rel: string) => {
    for (const name of fs.readdirSync(path.join(dir, rel))) {
      const r = rel ? `${rel}/${name}` : name;
      const st = fs.lstatSync(path.join(dir, r));
      if (st.isDirectory()) walk(r);
      else if (st.isFile()) out.push({ path: r, data: new Uint8Array(fs.readFileSync(path.join(dir, r))), mode: st.mode & 0o111 ? 0o755 : undefined });
    }
  };
  walk("");
  return out;
}

/** A repository as people have them: history on two branches, a tag, a remote, hooks, ignored and tracked-but-ignored files, staged and unstaged changes. */
function realisticRepo(): string {
  const dir = tempDir("tabula-import-src-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  const w = (p: string, s: string) => (fs.mkdirSync(path.dirname(path.join(dir, p)), { recursive: true }), fs.writeFileSync(path.join(dir, p), s));
  native(dir, "init", "-q", "-b", "main");
  w(".gitignore", "node_modules/\n*.log\ndist/\n");
  w("src/app.js", "export const v = 1;\n");
  w("README.md", "# project\n");
  native(dir, "add", "-A");
  native(dir, "commit", "-qm", "first");
  w("dist/keep.js", "tracked although ignored\n");
  native(dir, "add", "-f", "dist/keep.js");
  w("src/app.js", "export const v = 2;\n");
  native(dir, "commit", "-qam", "second");
  native(dir, "tag", "v1.0");
  native(dir, "switch", "-qc", "feature");
  w("src/feature.js", "export const f = true;\n");
  native(dir, "add", "-A");
  native(dir, "commit", "-qm", "feature work");
  native(dir, "switch", "-q", "main");
  native(dir, "remote", "add", "origin", "https://alice:ghp_secret123@example.com/team/project.git");
  native(dir, "gc", "-q"); // packed history, packed refs
  w("node_modules/lib/index.js", "module.exports = 1;\n");
  w("node_modules/lib/package.json", "{}\n");
  w("debug.log", "noise\n");
  w("dist/new-build.js", "ignored output\n");
  w("README.md", "# project\n\nstaged change\n");
  native(dir, "add", "README.md");
  w("src/app.js", "export const v = 3; // unstaged\n");
  w("notes.txt", "untracked\n");
  w(".git/hooks/pre-commit", "#!/bin/sh\necho from a stranger\n");
  return dir;
}

describe("importing a folder that is a git repository keeps it one", () => {
  it("history, branches, tags, remote, staged and unstaged changes as native git sees them; hooks, credentials and ignored files left out", async () => {
    const src = realisticRepo();
    const ws = tempWorkspace();
    cleanups.push(ws.cleanup);
    const r = await populateWorkspace(ws.wsfs, entriesOf(src), { message: "Import" });
    expect(r.history).toBe(true);
    const same = (...args: string[]) => expect(native(ws.dir, ...args), args.join(" ")).toBe(native(src, ...args));
    same("log", "--all", "--format=%H %P %s");
    same("branch", "--format=%(refname:short) %(objectname)");
    same("tag", "--list");
    same("rev-parse", "HEAD", "feature", "v1.0");
    same("diff", "--cached", "--stat");
    expect(native(ws.dir, "status", "--porcelain")).toBe("M  README.md\n M src/app.js\n?? notes.txt\n");
    native(ws.dir, "fsck", "--strict", "--no-dangling");
    expect(native(ws.dir, "remote", "get-url", "origin")).toBe("https://example.com/team/project.git\n");
    expect(fs.existsSync(path.join(ws.dir, ".git/hooks/pre-commit"))).toBe(false);
    expect(fs.existsSync(path.join(ws.dir, "node_modules"))).toBe(false);
    expect(fs.existsSync(path.join(ws.dir, "debug.log"))).toBe(false);
    expect(fs.existsSync(path.join(ws.dir, "dist/new-build.js"))).toBe(false);
    expect(fs.readFileSync(path.join(ws.dir, "dist/keep.js"), "utf8")).toBe("tracked although ignored\n"); // tracked: kept
    expect(r.notes.join("\n")).toContain("Removed the credentials from the URL of remote 'origin'");
    expect(r.notes.join("\n")).toMatch(/Left out \d+ git hooks? \(\.git\/hooks\)/);
    const skipped = r.notes.find((n) => n.startsWith("Skipped 4 files the .gitignore files ignore: node_modules/ (2 files), "));
    expect(skipped).toBeDefined();
    expect(skipped).toContain("debug.log");
    expect(skipped).toContain("dist/ (1 file)");
    for (const f of fs.readdirSync(path.join(ws.dir, ".git"), { recursive: true }) as string[]) {
      const p = path.join(ws.dir, ".git", f);
      if (fs.statSync(p).isFile()) expect(fs.readFileSync(p).includes("ghp_secret123"), f).toBe(false);
    }
  });

  it("exports with history: the archive unpacks into a repository native git takes as it is, without the checkpoints", async () => {
    const src = realisticRepo();
    const ws = tempWorkspace();
    cleanups.push(ws.cleanup);
    await populateWorkspace(ws.wsfs, entriesOf(src), { message: "Import" });
    await createCheckpoint({ fs: fs as unknown as IsoFs, dir: ws.dir }, { sessionId: "s", run: 1 });
    const plain = unzipSync(await exportZip(ws.wsfs));
    expect(Object.keys(plain).some((p) => p.startsWith(".git/"))).toBe(false);
    expect(plain[".gitignore"]).toBeDefined();
    const files = unzipSync(await exportZip(ws.wsfs, undefined, { withHistory: true }));
    const out = tempDir("tabula-export-");
    cleanups.push(() => fs.rmSync(out, { recursive: true, force: true }));
    for (const [p, data] of Object.entries(files)) {
      if (p.endsWith("/")) fs.mkdirSync(path.join(out, p), { recursive: true }); // a directory entry, as unzip makes it
      else {
        fs.mkdirSync(path.dirname(path.join(out, p)), { recursive: true });
        fs.writeFileSync(path.join(out, p), data);
      }
    }
    expect(Object.keys(files).some((p) => p.startsWith(".git/tabula/") || p.startsWith(".git/refs/tabula/"))).toBe(false);
    expect(native(out, "for-each-ref", "refs/tabula")).toBe("");
    expect(native(out, "log", "--all", "--format=%H %s")).toBe(native(src, "log", "--all", "--format=%H %s"));
    expect(native(out, "status", "--porcelain")).toBe(native(ws.dir, "status", "--porcelain"));
    native(out, "fsck", "--strict");
  });

  it("brings ignored files when asked", async () => {
    const src = realisticRepo();
    const ws = tempWorkspace();
    cleanups.push(ws.cleanup);
    const r = await populateWorkspace(ws.wsfs, entriesOf(src), { message: "Import", includeIgnored: true });
    expect(fs.readFileSync(path.join(ws.dir, "node_modules/lib/index.js"), "utf8")).toBe("module.exports = 1;\n");
    expect(r.notes.some((n) => n.startsWith("Skipped"))).toBe(false);
    expect(native(ws.dir, "status", "--porcelain")).toBe(native(src, "status", "--porcelain"));
  });

  it("an index this git cannot read (v4) is rebuilt from HEAD: the files stay, staged changes become changes", async () => {
    const src = realisticRepo();
    native(src, "update-index", "--index-version", "4");
    const ws = tempWorkspace();
    cleanups.push(ws.cleanup);
    const r = await populateWorkspace(ws.wsfs, entriesOf(src), { message: "Import" });
    expect(r.notes.some((n) => n.includes("rebuilt from HEAD"))).toBe(true);
    expect(native(ws.dir, "status", "--porcelain")).toBe(" M README.md\n M src/app.js\n?? notes.txt\n");
    native(ws.dir, "fsck", "--strict", "--no-dangling");
    expect(native(ws.dir, "log", "--format=%s")).toBe("second\nfirst\n");
  });

  it("a .git without HEAD or objects is no repository: a fresh one with an Import commit, and a note", async () => {
    const ws = tempWorkspace();
    cleanups.push(ws.cleanup);
    const r = await populateWorkspace(ws.wsfs, [{ path: "a.txt", data: "a\n" }, { path: ".git/config", data: "[core]\n" }], { message: "Import x" });
    expect(r.history).toBe(false);
    expect(r.notes[0]).toContain("incomplete");
    expect(native(ws.dir, "log", "--format=%s")).toBe("Import x\n");
  });

  it("strips user info from remote URLs only", () => {
    const cfg = '[core]\n\tbare = false\n[remote "origin"]\n\turl = https://u:p@host/r.git\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n[remote "up"]\n\tpushurl = ssh://git@host/r.git\n[remote "plain"]\n\turl = https://host/r.git\n';
    const { config, stripped } = withoutUrlCredentials(cfg);
    expect(stripped).toEqual(["origin", "up"]);
    expect(config).toContain("url = https://host/r.git\n\tfetch");
    expect(config).toContain("pushurl = ssh://host/r.git");
    expect(config).not.toContain("u:p@");
  });
});
