/**
 * A pass over .git/index's entries reading only their flags and paths, without building
 * isomorphic-git's index model (tens to hundreds of milliseconds at 10,000 entries, with every
 * stat field and id decoded): for the questions status asks before or beside its walk.
 * Written here because isomorphic-git offers no lighter reader; versions 2 and 3 (git's
 * default) are understood, anything else answers "unknown" (undefined).
 */

type Fs = { promises: { readFile(path: string): Promise<unknown> } };

/** Each entry's path bytes' bounds and its stage, in index order (`buf` is a version 2 or 3 index: readIndex checked). */
function* entries(buf: Uint8Array): Generator<{ stage: number; pathStart: number; pathEnd: number }, void, undefined> {
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  const version = view.getUint32(4);
  const count = view.getUint32(8);
  let at = 12;
  for (let i = 0; i < count && at + 62 <= buf.length; i++) {
    const flags = view.getUint16(at + 60);
    const extended = version === 3 && (flags & 0x4000) !== 0;
    const pathStart = at + 62 + (extended ? 2 : 0);
    let end = pathStart;
    while (end < buf.length && buf[end] !== 0) end++;
    yield { stage: (flags >> 12) & 0b11, pathStart, pathEnd: end };
    // Entries are NUL-padded to a multiple of 8 bytes.
    at += Math.ceil((end - at + 1) / 8) * 8;
  }
}

async function readIndex(fs: Fs, gitdir: string): Promise<Uint8Array | null | undefined> {
  let buf: Uint8Array;
  try {
    buf = (await fs.promises.readFile(`${gitdir}/index`)) as Uint8Array;
  } catch {
    return null; // no index: nothing staged
  }
  if (buf.length < 12) return undefined;
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  if (view.getUint32(0) !== 0x44495243) return undefined; // "DIRC"
  const version = view.getUint32(4);
  return version === 2 || version === 3 ? buf : undefined;
}

/**
 * Whether .git/index holds any unmerged (stage 1–3) entry: cheap enough to ask before every
 * status walk (isomorphic-git's stat-cache refresh must not run then: it would write a stage-0
 * entry over a conflicted path whose file matches a stage).
 */
export async function hasUnmergedEntries(fs: Fs, gitdir: string): Promise<boolean> {
  const buf = await readIndex(fs, gitdir);
  if (!buf) return false;
  for (const e of entries(buf)) if (e.stage !== 0) return true;
  return false;
}

/** Every path in .git/index (each once), or undefined when the index is not one this reads. */
export async function indexPaths(fs: Fs, gitdir: string): Promise<string[] | undefined> {
  const buf = await readIndex(fs, gitdir);
  if (buf === null) return [];
  if (buf === undefined) return undefined;
  const decoder = new TextDecoder();
  const out: string[] = [];
  for (const e of entries(buf)) {
    const path = decoder.decode(buf.subarray(e.pathStart, e.pathEnd));
    if (out[out.length - 1] !== path) out.push(path); // an unmerged path's stages sit together
  }
  return out;
}
