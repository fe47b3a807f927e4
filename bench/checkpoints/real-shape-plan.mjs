/**
 * The real-shaped workload's pure parts (no node: imports, so the Chromium bundle can use
 * them too): the schedule, the generated shape, and the mutation plans both sides apply.
 */
import { mulberry32 } from "./gen.mjs";

// cold three times (the median is reported): one run was within the machine's noise of the
// 3x target; each rep after the first is a new engine with no cache file, as on a fresh clone.
export const REAL_SCHEDULE = [
  ["cold", 3],
  ["noChange", 9],
  ["noChangeReload", 3],
  ["warm1", 5],
  ["warm1Reload", 3],
  ["restore1", 4],
  ["warm100", 3],
  ["warm100Reload", 3],
  ["restore100", 4],
];

const WORDS = "const let function return import export from await async if else for while class new this value data item index result".split(" ");
const EXTS = ["js", "ts", "tsx", "json", "md", "css", "mjs"];

export function text(rand, size) {
  let s = "";
  while (s.length < size) {
    const n = 3 + Math.floor(rand() * 8);
    const line = [];
    for (let i = 0; i < n; i++) line.push(WORDS[Math.floor(rand() * WORDS.length)]);
    s += "  ".repeat(Math.floor(rand() * 3)) + line.join(" ") + ";\n";
  }
  return s.slice(0, size);
}

/** The shape: directories, files, ignore files, ignored files (paths + contents). */
export function realShape({ files = 10_000, dirs = 3_500, maxDepth = 10, ignores = 12, seed = 7 } = {}) {
  const rand = mulberry32(seed);
  const dirList = [{ path: "", depth: 0 }];
  for (let i = 1; i < dirs; i++) {
    // parents drawn from recent directories too, so chains reach depth 10
    let parent;
    do parent = rand() < 0.5 ? dirList[Math.floor(rand() * dirList.length)] : dirList[Math.max(0, dirList.length - 1 - Math.floor(rand() * 40))];
    while (parent.depth >= maxDepth);
    const name = `${["src", "lib", "test", "pkg", "core", "util", "ui", "api", "docs", "fixtures"][Math.floor(rand() * 10)]}${i}`;
    dirList.push({ path: parent.path ? `${parent.path}/${name}` : name, depth: parent.depth + 1 });
  }
  const out = [];
  for (let i = 0; i < files; i++) {
    const d = dirList[i < dirList.length ? i : Math.floor(rand() * dirList.length)]; // no empty directory
    const name = `f${i}.${EXTS[Math.floor(rand() * EXTS.length)]}`;
    const size = Math.round(Math.exp(Math.log(150) + rand() * (Math.log(12_000) - Math.log(150))));
    out.push({ path: d.path ? `${d.path}/${name}` : name, data: text(rand, size) });
  }
  const gitignores = [{ path: ".gitignore", data: "node_modules/\n*.log\n/dist/\n" }];
  const ignored = [{ path: "node_modules/pkg/index.js", data: "ignored\n" }, { path: "debug.log", data: "ignored\n" }];
  const picked = new Set();
  while (gitignores.length < ignores) {
    const d = dirList[1 + Math.floor(rand() * (dirList.length - 1))];
    if (picked.has(d.path)) continue;
    picked.add(d.path);
    gitignores.push({ path: `${d.path}/.gitignore`, data: "build/\n*.tmp\n!keep.tmp\n" });
    for (let j = 0; j < 20; j++) ignored.push({ path: `${d.path}/build/out${j}.js`, data: text(rand, 400) });
    ignored.push({ path: `${d.path}/cache.tmp`, data: "tmp\n" });
    out.push({ path: `${d.path}/keep.tmp`, data: "re-included\n" });
  }
  return { files: [...out, ...gitignores], ignored, dirCount: dirList.length, maxDepth: Math.max(...dirList.map((d) => d.depth)) };
}

const dirname = (p) => (p.lastIndexOf("/") === -1 ? "." : p.slice(0, p.lastIndexOf("/")));

/** Mutation plans shared by both sides: k files modified (and for 100: 90 modified, 5 added, 5 deleted). */
export function planChange(live, count, seed) {
  const rand = mulberry32(seed);
  const pick = () => live[Math.floor(rand() * live.length)];
  if (count === 1) return { modify: [{ path: pick(), data: `// edit ${seed}\n` + text(rand, 300) }], add: [], delete: [] };
  const mod = new Set();
  while (mod.size < 90) mod.add(pick());
  const del = new Set();
  while (del.size < 5) {
    const p = pick();
    if (!mod.has(p)) del.add(p);
  }
  return {
    modify: [...mod].map((p) => ({ path: p, data: `// edit ${seed}\n` + text(rand, 500) })),
    add: Array.from({ length: 5 }, (_, i) => ({ path: `${dirname(pick())}/added-${seed}-${i}.js`, data: text(rand, 400) })),
    delete: [...del],
  };
}

export function nextLive(live, plan) {
  const del = new Set(plan.delete);
  return [...live.filter((p) => !del.has(p)), ...plan.add.map((a) => a.path)];
}
