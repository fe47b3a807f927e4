/**
 * Deterministic benchmark workspaces and mutation plans (pure JS: runs in Node and, bundled,
 * in the browser). Same seed, same bytes everywhere.
 *
 * N text files, sizes log-uniform 200 B – 20 KB, paths srcC/modB/partA/fileI.ext (depth 4,
 * ~N/17.5 leaf directories), 5 incompressible binaries (~2 MB), README.md, a .gitignore,
 * and ignored content (node_modules/…, debug.log) that must never be captured.
 */

export function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const WORDS =
  "const let function return import export from await async if else for while class new this value data item index result error string number object array map set key type interface extends implements true false null undefined".split(
    " ",
  );
const EXTS = ["ts", "tsx", "js", "json", "md", "css"];
const enc = new TextEncoder();

function text(rand, size) {
  let s = "";
  while (s.length < size) {
    const line = [];
    const n = 3 + Math.floor(rand() * 9);
    for (let i = 0; i < n; i++) line.push(WORDS[Math.floor(rand() * WORDS.length)]);
    s += "  ".repeat(Math.floor(rand() * 4)) + line.join(" ") + ";\n";
  }
  return enc.encode(s.slice(0, size));
}

function logUniform(rand, lo, hi) {
  return Math.round(Math.exp(Math.log(lo) + rand() * (Math.log(hi) - Math.log(lo))));
}

/** { files: [{ path, data, exec }], ignored: [{ path, data }], textPaths: string[] } */
export function generate(n, seed = 42) {
  const rand = mulberry32(seed);
  const leaves = Math.max(4, Math.round(n / 17.5));
  const c = Math.max(2, Math.round(Math.cbrt(leaves)));
  const b = c;
  const a = Math.max(1, Math.round(leaves / (c * b)));
  const files = [];
  for (let i = 0; i < n; i++) {
    const dir = `src${Math.floor(rand() * c)}/mod${Math.floor(rand() * b)}/part${Math.floor(rand() * a)}`;
    const ext = EXTS[Math.floor(rand() * EXTS.length)];
    files.push({ path: `${dir}/file${i}.${ext}`, data: text(rand, logUniform(rand, 200, 20000)), exec: i % 97 === 0 });
  }
  const textPaths = files.map((f) => f.path);
  for (let i = 0; i < 5; i++) {
    const size = [65536, 131072, 262144, 524288, 1048576][i];
    const data = new Uint8Array(size);
    for (let j = 0; j < size; j += 4) {
      const v = (rand() * 4294967296) >>> 0;
      data[j] = v & 255;
      data[j + 1] = (v >>> 8) & 255;
      data[j + 2] = (v >>> 16) & 255;
      data[j + 3] = v >>> 24;
    }
    files.push({ path: `assets/blob${i}.bin`, data, exec: false });
  }
  files.push({ path: "README.md", data: enc.encode("# benchmark workspace\n"), exec: false });
  files.push({ path: ".gitignore", data: enc.encode("node_modules/\n*.log\n"), exec: false });
  const ignored = [{ path: "debug.log", data: text(rand, 5000) }];
  for (let i = 0; i < 50; i++) ignored.push({ path: `node_modules/pkg${i % 7}/lib/index${i}.js`, data: text(rand, 2000) });
  return { files, ignored, textPaths };
}

/** New content for a modified file (deterministic per rep and index). */
export function modifiedContent(rep, i, size = 1500) {
  return text(mulberry32(1000003 * (rep + 1) + i), size);
}

/** The 1-file change of warm1 rep `rep` over the live text paths. */
export function planWarm1(live, rep) {
  const path = live[(rep * 7919 + 13) % live.length];
  return { modify: [{ path, data: modifiedContent(rep, 0, 900 + rep) }], add: [], delete: [] };
}

/** 90 modified, 5 added (in existing directories), 5 deleted. */
export function planWarm100(live, rep) {
  const n = live.length;
  const picked = new Set();
  const modify = [];
  for (let i = 0; modify.length < 90; i++) {
    const p = live[(rep * 1009 + i * 37) % n];
    if (picked.has(p)) continue;
    picked.add(p);
    modify.push({ path: p, data: modifiedContent(100 + rep, i) });
  }
  const del = [];
  for (let i = 0; del.length < 5; i++) {
    const p = live[(rep * 2003 + 500 + i * 101) % n];
    if (picked.has(p)) continue;
    picked.add(p);
    del.push(p);
  }
  const add = [];
  for (let i = 0; i < 5; i++) {
    const base = live[(rep * 31 + i * 211) % n];
    add.push({ path: `${base.slice(0, base.lastIndexOf("/"))}/added-${rep}-${i}.ts`, data: modifiedContent(500 + rep, i) });
  }
  return { modify, add, delete: del };
}

/** Apply a plan's effect on the live path list (what both sides keep in step). */
export function updateLive(live, plan) {
  const dead = new Set(plan.delete);
  const next = live.filter((p) => !dead.has(p));
  for (const a of plan.add) next.push(a.path);
  return next;
}
