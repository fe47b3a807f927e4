/**
 * Refs, read and written directly (loose files + packed-refs), with reads cached on the
 * file's stat so resolving HEAD on lightning-fs costs in-memory lstats, not IndexedDB reads.
 * Writes go through temp+rename (atomicWrite) like git's lock files.
 */
import type { IsoFs } from "../fs/types";
import type { ObjectWriter } from "./objects";
import { atomicWrite, CheckpointError, fromUtf8, joinAbs, lstatOrNull, mkdirp, OID_RE, readdirOrEmpty, readOrNull, unlinkIfExists, utf8 } from "./util";
import { RACY_MARGIN_MS } from "../fs/racy-margin";

type Cached = { key: string; text: string | null };

export class RefStore {
  private cache = new Map<string, Cached>();
  readonly knownDirs = new Set<string>();

  constructor(
    readonly fs: IsoFs,
    readonly gitdir: string,
  ) {}

  /** Forget every cached read (the repository may have changed behind us). */
  clearCache(): void {
    this.cache.clear();
  }

  /** Text of a file under the git dir, or null; cached on (size, mtime, ino). */
  async readText(rel: string): Promise<string | null> {
    const abs = joinAbs(this.gitdir, rel);
    const at = Date.now();
    const st = await lstatOrNull(this.fs, abs);
    if (!st || !st.isFile()) {
      this.cache.delete(rel);
      return null;
    }
    const key = `${st.size}:${st.mtimeMs}:${st.ino ?? ""}`;
    const hit = this.cache.get(rel);
    if (hit && hit.key === key) return hit.text;
    const raw = await readOrNull(this.fs, abs);
    const text = raw ? fromUtf8(raw) : null;
    if (st.mtimeMs + RACY_MARGIN_MS < at) this.cache.set(rel, { key, text });
    else this.cache.delete(rel);
    return text;
  }

  async packed(): Promise<Map<string, string>> {
    const text = await this.readText("packed-refs");
    const out = new Map<string, string>();
    if (!text) return out;
    for (const line of text.split("\n")) {
      if (line === "" || line.startsWith("#") || line.startsWith("^")) continue;
      const sp = line.indexOf(" ");
      if (sp === 40) out.set(line.slice(41).trim(), line.slice(0, 40));
    }
    return out;
  }

  /** Resolve a ref (following symbolic refs) to an oid; undefined when it does not exist. */
  async resolve(name: string, depth = 0): Promise<string | undefined> {
    if (depth > 10) throw new CheckpointError("CORRUPT", `Symbolic ref loop at ${name}`);
    assertSafeRefPath(name);
    const text = await this.readText(name);
    if (text !== null) {
      const v = text.trim();
      if (v.startsWith("ref:")) return this.resolve(v.slice(4).trim(), depth + 1);
      if (OID_RE.test(v)) return v;
      throw new CheckpointError("CORRUPT", `Ref ${name} holds ${JSON.stringify(v.slice(0, 60))}`);
    }
    return (await this.packed()).get(name);
  }

  async write(name: string, oid: string): Promise<void> {
    assertRefName(name);
    await atomicWrite(this.fs, joinAbs(this.gitdir, name), oid + "\n", this.knownDirs);
    this.cache.delete(name);
  }

  /**
   * Write ref `name` after `writer`'s pending objects, which it may name: never stored before
   * them (in their storage transaction where the fs can, else after their flush).
   */
  async writeAfter(writer: ObjectWriter, name: string, oid: string): Promise<void> {
    assertRefName(name);
    if (this.fs.promises.writeFiles) {
      const abs = joinAbs(this.gitdir, name);
      await mkdirp(this.fs, abs.slice(0, abs.lastIndexOf("/")), this.knownDirs);
      if (await writer.flushWith([{ path: abs, data: utf8(oid + "\n") }])) {
        this.cache.delete(name);
        return;
      }
      // Only flushed: written after, as below (a directory gone behind the cache is made again there).
    } else await writer.flush();
    await this.write(name, oid);
  }

  /** Delete a ref, loose and packed. */
  async delete(name: string): Promise<void> {
    assertSafeRefPath(name);
    await unlinkIfExists(this.fs, joinAbs(this.gitdir, name));
    this.cache.delete(name);
    const text = await this.readText("packed-refs");
    if (!text || !text.includes(" " + name)) return;
    const lines = text.split("\n");
    const out: string[] = [];
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!;
      if (line.length > 41 && line.slice(41) === name) {
        if (lines[i + 1]?.startsWith("^")) i++; // its peeled line
        continue;
      }
      out.push(line);
    }
    await atomicWrite(this.fs, joinAbs(this.gitdir, "packed-refs"), out.join("\n"), this.knownDirs);
    this.cache.delete("packed-refs");
  }

  /** Every ref under `prefix` ("refs/tabula/"), loose winning over packed. */
  async list(prefix: string): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const [name, oid] of await this.packed()) if (name.startsWith(prefix)) out.set(name, oid);
    const base = prefix.endsWith("/") ? prefix.slice(0, -1) : prefix;
    const walk = async (rel: string): Promise<void> => {
      const names = await readdirOrEmpty(this.fs, joinAbs(this.gitdir, rel));
      await Promise.all(
        names.map(async (n) => {
          const child = `${rel}/${n}`;
          const st = await lstatOrNull(this.fs, joinAbs(this.gitdir, child));
          if (!st) return;
          if (st.isDirectory()) await walk(child);
          else if (st.isFile() && !n.endsWith(".lock") && !n.startsWith(".tmp-")) {
            const v = ((await this.readText(child)) ?? "").trim();
            if (OID_RE.test(v)) out.set(child, v);
          }
        }),
      );
    };
    await walk(base);
    return out;
  }

  /** Everything that keeps objects alive besides refs/: HEAD and friends, and every reflog line. */
  async extraRoots(): Promise<string[]> {
    const roots: string[] = [];
    for (const name of await readdirOrEmpty(this.fs, this.gitdir)) {
      if (!/^[A-Z_]*HEAD$/.test(name)) continue;
      const text = await this.readText(name);
      if (!text) continue;
      for (const m of text.matchAll(/\b[0-9a-f]{40}\b/g)) roots.push(m[0]);
      if (text.startsWith("ref:")) {
        const oid = await this.resolve(text.slice(4).trim()).catch(() => undefined);
        if (oid) roots.push(oid);
      }
    }
    const walkLogs = async (rel: string): Promise<void> => {
      for (const n of await readdirOrEmpty(this.fs, joinAbs(this.gitdir, rel))) {
        const child = `${rel}/${n}`;
        const st = await lstatOrNull(this.fs, joinAbs(this.gitdir, child));
        if (!st) continue;
        if (st.isDirectory()) await walkLogs(child);
        else {
          const raw = await readOrNull(this.fs, joinAbs(this.gitdir, child));
          if (!raw) continue;
          for (const line of fromUtf8(raw).split("\n")) {
            const m = /^([0-9a-f]{40}) ([0-9a-f]{40})/.exec(line);
            if (m) roots.push(m[1]!, m[2]!);
          }
        }
      }
    };
    await walkLogs("logs");
    return roots.filter((o) => o !== "0".repeat(40));
  }
}

const SEGMENT_RE = /^[A-Za-z0-9_][A-Za-z0-9._@+-]*$/;

/** Only names we are willing to create under .git: "HEAD"-like or refs/... with plain
 * segments (no "..", no ".lock", no control characters). */
export function assertRefName(name: string): void {
  if (/^[A-Z_]*HEAD$/.test(name)) return;
  if (!name.startsWith("refs/")) throw new CheckpointError("INVALID_ARGUMENT", `Not a ref name: ${JSON.stringify(name)}`);
  for (const seg of name.split("/")) {
    if (!SEGMENT_RE.test(seg) || seg.includes("..") || seg.endsWith(".lock") || seg.endsWith(".")) {
      throw new CheckpointError("INVALID_ARGUMENT", `Not a ref name: ${JSON.stringify(name)}`);
    }
  }
}

/** Looser check for refs we only read or delete (branch names may hold any character git
 * allows): it must stay a path inside the git dir. */
export function assertSafeRefPath(name: string): void {
  if (/^[A-Z_]*HEAD$/.test(name)) return;
  const bad =
    !name.startsWith("refs/") ||
    /[\0\\\x00-\x1f\x7f ~^:?*[]/.test(name) ||
    name.split("/").some((s) => s === "" || s === "." || s === ".." || s.endsWith(".lock"));
  if (bad) throw new CheckpointError("INVALID_ARGUMENT", `Not a ref name: ${JSON.stringify(name)}`);
}
