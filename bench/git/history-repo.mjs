/**
 * A repository with a long, packed history, built by native git (fast-import, then
 * `git repack -adf` so trees and commits sit in delta chains as in a real clone): `commits`
 * commits touching 1–3 files each over `files` files in 60 directories, a third of them
 * changing `index.js`.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";

export function buildHistoryRepo(dir, { commits = 6000, files = 1500, seed = 7 } = {}) {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const env = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: dir, GIT_AUTHOR_NAME: "a", GIT_AUTHOR_EMAIL: "a@b", GIT_COMMITTER_NAME: "a", GIT_COMMITTER_EMAIL: "a@b" };
  execFileSync("git", ["-c", "init.defaultBranch=main", "init", "-q"], { cwd: dir, env });
  let s = seed;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff);
  const tree = new Map();
  for (let i = 0; i < files; i++) tree.set(`src/d${i % 60}/f${i}.js`, Array.from({ length: 40 }, (_, j) => `line ${j} of ${i}`).join("\n") + "\n");
  tree.set("index.js", Array.from({ length: 200 }, (_, j) => `export const x${j} = ${j};`).join("\n") + "\n");
  const keys = [...tree.keys()];
  const chunks = [];
  const data = (x) => `data ${Buffer.byteLength(x)}\n${x}\n`;
  let mark = 0;
  let prev = 0;
  let t = 1_600_000_000;
  for (let c = 0; c < commits; c++) {
    const changes = [];
    if (c === 0) for (const [p, d] of tree) changes.push([p, d]);
    else {
      for (let k = 0; k < 1 + Math.floor(rnd() * 3); k++) {
        const p = rnd() < 0.3 ? "index.js" : keys[Math.floor(rnd() * keys.length)];
        const lines = tree.get(p).split("\n");
        const at = Math.floor(rnd() * (lines.length - 1));
        lines[at] = `changed in ${c}: ${lines[at]}`.slice(0, 80);
        tree.set(p, lines.join("\n"));
        changes.push([p, tree.get(p)]);
      }
    }
    const blobMarks = [];
    for (const [, d] of changes) {
      chunks.push(`blob\nmark :${++mark}\n${data(d)}`);
      blobMarks.push(mark);
    }
    mark++;
    t += 60;
    let x = `commit refs/heads/main\nmark :${mark}\nauthor a <a@b> ${t} +0000\ncommitter a <a@b> ${t} +0000\n${data(`commit number ${c}`)}`;
    if (c > 0) x += `from :${prev}\n`;
    changes.forEach(([p], i) => (x += `M 100644 :${blobMarks[i]} ${p}\n`));
    chunks.push(x + "\n");
    prev = mark;
  }
  execFileSync("git", ["fast-import", "--quiet"], { cwd: dir, env, input: chunks.join(""), maxBuffer: 1 << 28 });
  execFileSync("git", ["repack", "-adfq"], { cwd: dir, env });
  execFileSync("git", ["read-tree", "-u", "--reset", "HEAD"], { cwd: dir, env });
  return { commits, files: files + 1 };
}
