/**
 * Renaming and pinning checkpoints, and recording an existing state (a restore's saved
 * pre-restore commit) as a checkpoint of a session. A git commit cannot change, so each of these
 * writes one new commit object — same tree, same parent, updated trailers — and points the ref
 * at it. No file is read or hashed: it costs one small object.
 */
import { engineFor, type Workspace } from "./engine";
import {
  CHECKPOINT_PREFIX,
  formatMessage,
  ident,
  parseTrailers,
  readCheckpointInfo,
  resolveTreeish,
  runComponent,
  validateComponent,
  validateKind,
  type CheckpointInfo,
  type CheckpointKind,
  type Run,
} from "./checkpoint";
import { decodeCommit, encodeCommit } from "./objects";
import { CheckpointError } from "./util";

export type AnnotateOptions = {
  /** New label (a save point's name); "" removes it. */
  label?: string;
  pinned?: boolean;
  /**
   * Write the result to a new checkpoint ref instead of replacing `ref` (which then stays as it
   * was): how a restore's saved state becomes a tick on its session's timeline.
   */
  as?: { sessionId: string; run: Run; kind?: CheckpointKind };
};

/** Trailers carried over unchanged from the source commit. */
const CARRIED = ["Files-Hashed", "Large-File"];

export async function annotateCheckpoint(ws: Workspace, ref: string, opts: AnnotateOptions): Promise<CheckpointInfo> {
  if (!opts || typeof opts !== "object") throw new CheckpointError("INVALID_ARGUMENT", "options are required");
  if (opts.label !== undefined && typeof opts.label !== "string") throw new CheckpointError("INVALID_ARGUMENT", "label must be a string");
  if (opts.pinned !== undefined && typeof opts.pinned !== "boolean") throw new CheckpointError("INVALID_ARGUMENT", "pinned must be true or false");
  let target: string;
  if (opts.as) {
    validateComponent("sessionId", opts.as.sessionId);
    validateKind(opts.as.kind);
    target = `${CHECKPOINT_PREFIX}${opts.as.sessionId}/${runComponent(opts.as.run)}`;
  } else {
    if (typeof ref !== "string" || !ref.startsWith(CHECKPOINT_PREFIX)) {
      throw new CheckpointError("INVALID_ARGUMENT", `Only checkpoints (${CHECKPOINT_PREFIX}…) can be renamed or pinned; got ${JSON.stringify(ref)}`);
    }
    target = ref;
  }
  const engine = engineFor(ws);
  return engine.mutex.run(async () => {
    await engine.assertRepo();
    const { commit } = await resolveTreeish(engine, ref);
    if (!commit) throw new CheckpointError("INVALID_ARGUMENT", `${ref} names a tree, not a checkpoint`);
    const source = decodeCommit((await engine.store.read(commit)).content);
    const old = parseTrailers(source.message);
    const first = <T>(k: string) => old.get(k)?.[0] as T | undefined;
    const sessionId = opts.as?.sessionId ?? first<string>("Session") ?? target.slice(CHECKPOINT_PREFIX.length).split("/")[0]!;
    const run = opts.as?.run ?? first<Run>("Run") ?? target.slice(target.lastIndexOf("/") + 1);
    const kind = opts.as ? validateKind(opts.as.kind) : validateKind(first<CheckpointKind>("Kind"));
    const label = opts.label !== undefined ? opts.label || undefined : first<string>("Label");
    const pinned = opts.pinned ?? first<boolean>("Pinned") === true;
    const createdAt = Number(first("Created-At") ?? Date.now());
    const trailers: [string, unknown][] = [
      ["Session", sessionId],
      ["Run", run],
      ["Created-At", createdAt],
      ["Label", label],
      ["Kind", kind === "run" ? undefined : kind],
      ["Pinned", pinned ? true : undefined],
    ];
    for (const k of CARRIED) for (const v of old.get(k) ?? []) trailers.push([k, v]);
    const message = formatMessage(`Tabula checkpoint ${sessionId}/${run}${label ? ": " + label : ""}`, trailers);
    const writer = engine.store.newWriter();
    const oid = await writer.add("commit", encodeCommit({ tree: source.tree, parents: source.parents, author: source.author, committer: ident(Date.now()), message }));
    await writer.flush();
    await engine.refs.write(target, oid);
    await engine.bumpGeneration().catch(() => undefined);
    await engine.fs.promises.flush?.();
    const info = await readCheckpointInfo(engine.store, target, oid);
    if (!info) throw new CheckpointError("CORRUPT", `Could not read back ${target}`);
    return info;
  });
}
