/**
 * A session as a git bundle: its checkpoints under refs/tabula/checkpoints/<session>/…, the
 * transcript as a commit under refs/tabula/sessions/<session> (session.json + transcript.md),
 * and the current branch with HEAD, so `git clone session.bundle` gives a working copy and
 * `git fetch session.bundle 'refs/tabula/*:refs/tabula/*'` the rest. Importing one makes a
 * workspace that continues the session: same files (untracked ones included), same timeline.
 */
import git from "isomorphic-git";
import type { SessionData } from "../agent/session";
import type { AgentMessage } from "../agent/messages";
import { newSessionId } from "../agent/ids";
import type { Workspace } from "../checkpoints/engine";
import { importBundleObjects, parseBundle, writeBundle, BundleError, type BundleRef, type Repo } from "./bundle";
import { envelope, parseEnvelope } from "./schema";

type Engine = typeof import("../checkpoints/index");

export const SESSION_REF_PREFIX = "refs/tabula/sessions/";
const CHECKPOINT_PREFIX = "refs/tabula/checkpoints/";
const AUTHOR = { name: "Tabula", email: "sessions@tabula.invalid" };
/** Bundles larger than this are refused on import (the browser holds them in memory). */
export const MAX_IMPORT_BYTES = 512 * 1024 * 1024;

const enc = new TextEncoder();
const dec = new TextDecoder();

/** The conversation as Markdown, for people reading the bundle without Tabula. */
export function transcriptMarkdown(session: Pick<SessionData, "title" | "messages">): string {
  const lines = [`# ${session.title || "Tabula session"}`, ""];
  for (const m of session.messages as AgentMessage[]) {
    if (m.role === "user") lines.push(`## ${m.kind === "summary" ? "Summary" : m.kind === "notice" ? "Notice" : `You${m.run ? ` (turn ${m.run})` : ""}`}`, "", m.content.map((p) => p.text).join(""), "");
    else if (m.role === "assistant") {
      lines.push("## Agent", "");
      for (const p of m.content) {
        if (p.type === "text") lines.push(p.text, "");
        else if (p.type === "tool-call") lines.push(`- \`${p.toolName}\` ${JSON.stringify(p.input).slice(0, 300)}`);
      }
      lines.push("");
    } else for (const r of m.content) lines.push(`  - result of \`${r.toolName}\`: ${(r.ui?.status ?? "done")}`);
  }
  return lines.join("\n") + "\n";
}

/** The session commit (no parent): session.json (the versioned envelope) and transcript.md. */
export async function sessionCommit(repo: Repo, session: SessionData, now = Date.now()): Promise<string> {
  const json = JSON.stringify(envelope(session, now), null, 1);
  const sessionBlob = await git.writeBlob({ fs: repo.fs, dir: repo.dir, blob: enc.encode(json) });
  const mdBlob = await git.writeBlob({ fs: repo.fs, dir: repo.dir, blob: enc.encode(transcriptMarkdown(session)) });
  const tree = await git.writeTree({
    fs: repo.fs,
    dir: repo.dir,
    tree: [
      { mode: "100644", path: "session.json", oid: sessionBlob, type: "blob" },
      { mode: "100644", path: "transcript.md", oid: mdBlob, type: "blob" },
    ],
  });
  const ts = Math.floor(now / 1000);
  return git.writeCommit({
    fs: repo.fs,
    dir: repo.dir,
    commit: { message: `Tabula session: ${session.title || session.id}\n`, tree, parent: [], author: { ...AUTHOR, timestamp: ts, timezoneOffset: 0 }, committer: { ...AUTHOR, timestamp: ts, timezoneOffset: 0 } },
  });
}

/** The session commit, with refs/tabula/sessions/<id> pointing at it. */
export async function writeSessionCommit(repo: Repo, session: SessionData, now = Date.now()): Promise<string> {
  const oid = await sessionCommit(repo, session, now);
  await git.writeRef({ fs: repo.fs, dir: repo.dir, ref: SESSION_REF_PREFIX + session.id, value: oid, force: true });
  return oid;
}

export type SessionExport = { bundle: Uint8Array; refs: BundleRef[]; checkpoints: number; snapshotRef: string };

/**
 * Snapshot the working tree as it is now (a save point "Exported", so the bundle holds exactly
 * what the user sees), then bundle the session's checkpoints, its transcript, and the branch.
 */
export async function exportSessionBundle(engine: Engine, ws: Workspace, session: SessionData, now = Date.now()): Promise<SessionExport> {
  const repo: Repo = { fs: ws.fs as Repo["fs"], dir: ws.dir };
  const snap = await engine.createCheckpoint(ws, { sessionId: session.id, run: `export-${now.toString(36)}`, kind: "save", label: "Exported" });
  const checkpoints = await engine.listCheckpoints(ws, { sessionId: session.id });
  const refs: BundleRef[] = [];
  const branch = await git.currentBranch({ fs: repo.fs, dir: repo.dir, fullname: true }).catch(() => undefined);
  if (branch) {
    const head = await git.resolveRef({ fs: repo.fs, dir: repo.dir, ref: branch }).catch(() => undefined);
    if (head) refs.push({ name: "HEAD", oid: head }, { name: branch, oid: head });
  }
  for (const c of checkpoints) refs.push({ name: c.ref, oid: c.oid });
  refs.push({ name: SESSION_REF_PREFIX + session.id, oid: await writeSessionCommit(repo, session, now) });
  return { bundle: await writeBundle(repo, refs), refs, checkpoints: checkpoints.length, snapshotRef: snap.ref };
}

export type SessionImport = {
  /** The session, under a new id (its checkpoints moved with it), ready for the session store. */
  session?: SessionData;
  branch?: string;
  checkpoints: number;
  /** The checkpoint the working tree was set to (the newest). */
  restoredTo?: string;
};

/** Read session.json from a session commit. */
async function readSession(repo: Repo, oid: string): Promise<SessionData> {
  const { blob } = await git.readBlob({ fs: repo.fs, dir: repo.dir, oid, filepath: "session.json" }).catch(() => {
    throw new BundleError("CORRUPT", "The bundle's session has no session.json");
  });
  return parseEnvelope(dec.decode(blob)).session;
}

/**
 * Import a bundle into an empty repository: objects, branch (checked out), checkpoints and the
 * session — given a new id so it never collides with the one it came from (it may be open in
 * this very browser) — then the working tree set to the newest checkpoint.
 */
export async function importSessionBundle(engine: Engine, ws: Workspace, bytes: Uint8Array, now = Date.now()): Promise<SessionImport> {
  const repo: Repo = { fs: ws.fs as Repo["fs"], dir: ws.dir };
  const parsed = parseBundle(bytes, MAX_IMPORT_BYTES);
  const refs = await importBundleObjects(repo, parsed);
  const sessionRefs = refs.filter((r) => r.name.startsWith(SESSION_REF_PREFIX));
  if (sessionRefs.length > 1) throw new BundleError("UNSUPPORTED", "This bundle holds several sessions; import one session's bundle at a time");
  const original = sessionRefs[0] ? await readSession(repo, sessionRefs[0].oid) : undefined;
  const session = original ? { ...original, id: newSessionId(now), forkedFrom: { sessionId: original.id, messageId: original.messages.at(-1)?.id ?? "" } } : undefined;
  const sid = session?.id;

  const moved = (name: string) => {
    if (!sid || !original || !name.startsWith(`${CHECKPOINT_PREFIX}${original.id}/`)) return name;
    return `${CHECKPOINT_PREFIX}${sid}/${name.slice(CHECKPOINT_PREFIX.length + original.id.length + 1)}`;
  };
  let checkpoints = 0;
  for (const r of refs) {
    if (r.name === "HEAD" || r.name.startsWith(SESSION_REF_PREFIX)) continue;
    if (!r.name.startsWith("refs/heads/") && !r.name.startsWith("refs/tags/") && !r.name.startsWith(CHECKPOINT_PREFIX)) continue;
    await git.writeRef({ fs: repo.fs, dir: repo.dir, ref: moved(r.name), value: r.oid, force: true });
    if (r.name.startsWith(CHECKPOINT_PREFIX)) checkpoints++;
  }
  if (session && sid) {
    session.checkpoints = session.checkpoints.map((c) => ({ ...c, ref: moved(c.ref) }));
    await writeSessionCommit(repo, session, now);
  }

  const head = refs.find((r) => r.name === "HEAD");
  const branch = refs.find((r) => r.name.startsWith("refs/heads/") && (!head || r.oid === head.oid))?.name;
  if (branch) {
    await git.writeRef({ fs: repo.fs, dir: repo.dir, ref: "HEAD", value: branch, symbolic: true, force: true });
    await git.checkout({ fs: repo.fs, dir: repo.dir, ref: branch.slice("refs/heads/".length), force: true });
  }
  const out: SessionImport = { session, branch: branch?.slice("refs/heads/".length), checkpoints };
  if (sid) {
    const list = await engine.listCheckpoints(ws, { sessionId: sid });
    const newest = list.at(-1);
    if (newest) {
      await engine.restoreCheckpoint(ws, newest.ref);
      out.restoredTo = newest.ref;
    }
  }
  return out;
}
