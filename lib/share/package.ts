/**
 * A share package: what a share link publishes, and nothing else. A zip (fflate) holding
 *  - `session.json`: the session envelope with every string redacted;
 *  - `checkpoints.bundle`: a git bundle of the session's checkpoints rewritten for sharing —
 *    parentless commits (the repository's history is not shared), `.env` files left out unless
 *    the user opted in file by file, text files with secrets redacted — plus the session commit.
 * `planShare` computes exactly what would be published (for the dialog); `buildShare` makes it.
 * `parseSharePackage` is what the server and the replay page run on the way in.
 */
import git from "isomorphic-git";
import { unzipSync, zipSync } from "fflate";
import type { SessionData } from "../agent/session";
import type { ImageAttachment } from "../agent/images";
import type { CheckpointInfo } from "../checkpoints/checkpoint";
import type { Workspace } from "../checkpoints/engine";
import { parseBundle, writeBundle, BundleError, type BundleRef, type ParsedBundle, type Repo } from "./bundle";
import { envelope, parseEnvelope, type SessionEnvelope } from "./schema";
import { isEnvFile, mergeFindings, redactDeep, redactText, type Finding, type SecretKind } from "./secrets";
import { sessionCommit, SESSION_REF_PREFIX } from "./session-bundle";
// A NUL in the first 8000 bytes marks a binary file (shared as is, not scanned).
import { looksBinary as isBinary } from "../git/binary";

type Engine = typeof import("../checkpoints/index");

export const DEFAULT_MAX_SHARE_BYTES = 50 * 1024 * 1024;
const CHECKPOINT_PREFIX = "refs/tabula/checkpoints/";

export type PlanFile = {
  path: string;
  /** Bytes of the newest version. */
  size: number;
  env: boolean;
  binary: boolean;
  /** Secrets found in any shared version (they are redacted). */
  findings: Finding[];
};

export type SharePlan = {
  session: SessionData;
  transcriptFindings: Finding[];
  checkpoints: CheckpointInfo[];
  files: PlanFile[];
  /** Bytes of distinct file versions that would be shared (before compression). */
  totalBytes: number;
  /** Internal: per blob oid, what the rewrite does. */
  blobs: Map<string, { size: number; binary: boolean; findings: Finding[] }>;
  known: readonly string[];
  /** Images sent with prompts, by message id: pixels cannot be scanned for secrets, so they go only when ticked. */
  images: Map<string, ImageAttachment[]>;
};

/** The session without its images (each prompt that had some says how many), and the images by message id. */
function splitImages(session: SessionData): { bare: SessionData; images: Map<string, ImageAttachment[]> } {
  const images = new Map<string, ImageAttachment[]>();
  const messages = session.messages.map((m) => {
    if (m.role !== "user" || !m.images?.length) return m;
    images.set(m.id, m.images);
    const { images: _left, ...rest } = m;
    void _left;
    return { ...rest, imagesLeftOut: m.images.length };
  });
  return { bare: { ...session, messages }, images };
}

/** Put the images back into the messages they came from. */
function withImages(messages: SessionData["messages"], images: Map<string, ImageAttachment[]>): SessionData["messages"] {
  return messages.map((m) => {
    const imgs = m.role === "user" ? images.get(m.id) : undefined;
    if (!imgs || m.role !== "user") return m;
    const { imagesLeftOut: _n, ...rest } = m;
    void _n;
    return { ...rest, images: imgs };
  });
}

const dec = new TextDecoder("utf-8", { fatal: false });
const enc = new TextEncoder();

type Entry = { path: string; oid: string; mode: string; type: "blob" | "tree" | "commit" };

async function walkTree(repo: Repo, oid: string, prefix = "", out: Entry[] = []): Promise<Entry[]> {
  const { tree } = await git.readTree({ fs: repo.fs, dir: repo.dir, oid });
  for (const e of tree) {
    const path = prefix + e.path;
    if (e.type === "tree") await walkTree(repo, e.oid, path + "/", out);
    else out.push({ path, oid: e.oid, mode: e.mode, type: e.type });
  }
  return out;
}

/** What sharing this session would publish. `known`: the user's configured model keys (always redacted). */
export async function planShare(engine: Engine, ws: Workspace, session: SessionData, known: readonly string[] = []): Promise<SharePlan> {
  const repo: Repo = { fs: ws.fs as Repo["fs"], dir: ws.dir };
  const counts = new Map<SecretKind, number>();
  // Redaction reads text: the images' base64 is kept out of it (and out of the share unless ticked).
  const { bare, images } = splitImages(session);
  const redacted = redactDeep(bare, known, counts);
  const checkpoints = (await engine.listCheckpoints(ws, { sessionId: session.id })).filter((c) => c.kind !== "restore");
  const blobs: SharePlan["blobs"] = new Map();
  const files = new Map<string, PlanFile>();
  for (const c of checkpoints) {
    for (const e of await walkTree(repo, c.tree)) {
      if (e.type !== "blob") continue;
      let info = blobs.get(e.oid);
      if (!info) {
        const { blob } = await git.readBlob({ fs: repo.fs, dir: repo.dir, oid: e.oid });
        const binary = e.mode === "120000" ? false : isBinary(blob);
        info = { size: blob.length, binary, findings: binary ? [] : redactText(dec.decode(blob), known).findings };
        blobs.set(e.oid, info);
      }
      const prev = files.get(e.path);
      files.set(e.path, {
        path: e.path,
        size: info.size,
        env: isEnvFile(e.path),
        binary: info.binary,
        findings: mergeFindings([prev?.findings ?? [], info.findings]),
      });
    }
  }
  let totalBytes = 0;
  for (const b of blobs.values()) totalBytes += b.size;
  return {
    session: redacted,
    transcriptFindings: [...counts].map(([kind, count]) => ({ kind, count })),
    checkpoints,
    files: [...files.values()].sort((a, b) => a.path.localeCompare(b.path)),
    totalBytes,
    blobs,
    known,
    images,
  };
}

export type BuiltShare = { zip: Uint8Array; bundle: Uint8Array; session: SessionData; excluded: string[] };

/**
 * Make the package of a plan. `.env` files are left out unless their path is in `includeEnv`.
 * Writes the rewritten objects (loose, unreferenced) into the workspace's object store; no ref
 * of the workspace changes.
 */
export async function buildShare(ws: Workspace, plan: SharePlan, opts: { includeEnv?: ReadonlySet<string>; includeImages?: boolean; now?: number } = {}): Promise<BuiltShare> {
  const repo: Repo = { fs: ws.fs as Repo["fs"], dir: ws.dir };
  const now = opts.now ?? Date.now();
  const includeEnv = opts.includeEnv ?? new Set<string>();
  const excluded = new Set<string>();
  const newBlob = new Map<string, string>();
  const newTree = new Map<string, string | null>();

  const blobFor = async (oid: string): Promise<string> => {
    const info = plan.blobs.get(oid);
    if (!info || info.binary || info.findings.length === 0) return oid;
    let out = newBlob.get(oid);
    if (!out) {
      const { blob } = await git.readBlob({ fs: repo.fs, dir: repo.dir, oid });
      out = await git.writeBlob({ fs: repo.fs, dir: repo.dir, blob: enc.encode(redactText(dec.decode(blob), plan.known).text) });
      newBlob.set(oid, out);
    }
    return out;
  };

  const rewrite = async (oid: string, prefix: string): Promise<string | null> => {
    const key = `${prefix}\0${oid}`;
    if (newTree.has(key)) return newTree.get(key)!;
    const { tree } = await git.readTree({ fs: repo.fs, dir: repo.dir, oid });
    const entries = [];
    for (const e of tree) {
      const path = prefix + e.path;
      if (e.type === "tree") {
        const t = await rewrite(e.oid, path + "/");
        if (t) entries.push({ ...e, oid: t });
      } else if (e.type === "blob") {
        if (isEnvFile(path) && !includeEnv.has(path)) {
          excluded.add(path);
          continue;
        }
        entries.push({ ...e, oid: await blobFor(e.oid) });
      } // gitlinks are not shared
    }
    const out = entries.length ? await git.writeTree({ fs: repo.fs, dir: repo.dir, tree: entries }) : null;
    newTree.set(key, out);
    return out;
  };

  const emptyTree = await git.writeTree({ fs: repo.fs, dir: repo.dir, tree: [] });
  const refs: BundleRef[] = [];
  const remap = new Map<string, string>();
  for (const c of plan.checkpoints) {
    const commit = await git.readCommit({ fs: repo.fs, dir: repo.dir, oid: c.oid });
    const tree = (await rewrite(c.tree, "")) ?? emptyTree;
    const oid = await git.writeCommit({
      fs: repo.fs,
      dir: repo.dir,
      commit: { ...commit.commit, tree, parent: [], message: redactText(commit.commit.message, plan.known).text },
    });
    refs.push({ name: c.ref, oid });
    remap.set(c.ref, oid);
  }
  const session: SessionData = {
    ...plan.session,
    messages: opts.includeImages ? withImages(plan.session.messages, plan.images) : plan.session.messages,
    checkpoints: plan.session.checkpoints.filter((c) => remap.has(c.ref)).map((c) => ({ ...c, oid: remap.get(c.ref)! })),
  };
  refs.push({ name: SESSION_REF_PREFIX + session.id, oid: await sessionCommit(repo, session, now) });
  const bundle = await writeBundle(repo, refs);
  const zip = zipSync({ "session.json": enc.encode(JSON.stringify(envelope(session, now))), "checkpoints.bundle": [bundle, { level: 0 }] }, { level: 6 });
  return { zip, bundle, session, excluded: [...excluded].sort() };
}

export type SharePackage = { envelope: SessionEnvelope; bundle: ParsedBundle; bundleBytes: Uint8Array };

export class SharePackageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SharePackageError";
  }
}

/**
 * Check a package: a zip of exactly session.json + checkpoints.bundle within the size limit, a
 * valid envelope, a complete bundle whose refs all belong to that session.
 */
export function parseSharePackage(bytes: Uint8Array, maxBytes = DEFAULT_MAX_SHARE_BYTES): SharePackage {
  if (bytes.length > maxBytes) throw new SharePackageError(`The share is ${bytes.length} bytes; the limit is ${maxBytes}.`);
  let files: Record<string, Uint8Array>;
  let unpacked = 0;
  try {
    files = unzipSync(bytes, {
      filter: (f) => {
        if (f.name !== "session.json" && f.name !== "checkpoints.bundle") throw new SharePackageError(`Unexpected file in the share: ${JSON.stringify(f.name.slice(0, 100))}`);
        unpacked += f.originalSize;
        if (unpacked > maxBytes * 4) throw new SharePackageError("The share unpacks to more than its size limit allows.");
        return true;
      },
    });
  } catch (e) {
    if (e instanceof SharePackageError) throw e;
    throw new SharePackageError("The share is damaged (not a valid package).");
  }
  if (!files["session.json"] || !files["checkpoints.bundle"]) throw new SharePackageError("The share is incomplete (session.json and checkpoints.bundle are required).");
  let env: SessionEnvelope;
  try {
    env = parseEnvelope(dec.decode(files["session.json"]));
  } catch (e) {
    throw new SharePackageError((e as Error).message);
  }
  let bundle: ParsedBundle;
  try {
    bundle = parseBundle(files["checkpoints.bundle"]);
  } catch (e) {
    throw new SharePackageError(`The share's checkpoints are unreadable: ${(e as BundleError).message}`);
  }
  const sid = env.session.id;
  for (const r of bundle.refs) {
    const ok = r.name === SESSION_REF_PREFIX + sid || r.name.startsWith(`${CHECKPOINT_PREFIX}${sid}/`);
    if (!ok) throw new SharePackageError(`The share's bundle holds a ref outside its session: ${JSON.stringify(r.name.slice(0, 200))}`);
  }
  return { envelope: env, bundle, bundleBytes: files["checkpoints.bundle"] };
}
