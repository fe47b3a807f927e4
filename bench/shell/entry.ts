/**
 * Browser entry for the shell benchmark: bundled by esbuild and loaded in Chromium. Exposes
 * `globalThis.shellBench` to the Playwright driver (bench/03-shell.bench.mjs).
 */
import { openNamedLightningFs } from "../../lib/fs/lightning";
import { ChangeJournal, type IsoFs, WorkspaceFs } from "../../lib/fs";
import { createShell, type Shell } from "../../lib/shell";

type Spec = { files: number; dirs: number; todoEvery: number; bytes: number };

let fs: IsoFs | null = null;
let shell: Shell | null = null;

/** Same generator as bench/03-shell.bench.mjs (kept byte-identical). */
function content(i: number, spec: Spec): string {
  const head = i % spec.todoEvery === 0 ? `// TODO: revisit item ${i}\n` : `// item ${i}\n`;
  let body = head;
  let n = 0;
  while (body.length < spec.bytes) body += `export const value${i}_${n++} = ${i * 31 + n}; // filler text to reach the size\n`;
  return body.slice(0, spec.bytes - 1) + "\n";
}

async function setup(spec: Spec): Promise<{ ms: number; bytes: number }> {
  const t0 = performance.now();
  fs = openNamedLightningFs(`tabula-shell-bench-${Date.now()}`, { wipe: true });
  const p = fs.promises;
  let bytes = 0;
  for (let d = 0; d < spec.dirs; d++) await p.mkdir(`/dir${String(d).padStart(2, "0")}`);
  const writes: Promise<unknown>[] = [];
  for (let i = 0; i < spec.files; i++) {
    const text = content(i, spec);
    bytes += text.length;
    writes.push(p.writeFile(`/dir${String(i % spec.dirs).padStart(2, "0")}/file${String(i).padStart(4, "0")}.ts`, new TextEncoder().encode(text)));
  }
  await Promise.all(writes);
  await p.flush?.();
  return { ms: performance.now() - t0, bytes };
}

/** A new shell (new WorkspaceFs, so empty read caches) over the same storage. */
async function freshShell(): Promise<number> {
  const t0 = performance.now();
  const wsfs = new WorkspaceFs({ fs: fs!, dir: "/", journal: new ChangeJournal() });
  shell = await createShell({ fs: fs!, dir: "/", wsfs });
  return performance.now() - t0;
}

async function run(cmd: string): Promise<{ ms: number; exitCode: number; lines: number; stderr: string }> {
  const t0 = performance.now();
  const r = await shell!.exec(cmd);
  return { ms: performance.now() - t0, exitCode: r.exitCode, lines: r.stdout.split("\n").filter(Boolean).length, stderr: r.stderr.slice(0, 300) };
}

(globalThis as unknown as { shellBench: unknown }).shellBench = { setup, freshShell, run };
