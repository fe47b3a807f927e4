/** A real share package of a one-prompt session over a small repository: what the store and link tests publish. */
import * as engine from "../../lib/checkpoints";
import { planShare, buildShare } from "../../lib/share/package";
import type { SessionData } from "../../lib/agent/session";
import { git, nodeFs, tempRepo, writeFiles } from "../checkpoints/helpers";

/** Build the package from `files` committed in a temp repository (its folder is pushed onto `tmp` for cleanup). */
export async function sharePackageOf(files: Record<string, string>, tmp: string[]): Promise<Uint8Array> {
  const dir = tempRepo();
  tmp.push(dir);
  writeFiles(dir, files);
  git(dir, ["add", "-A"]);
  git(dir, ["commit", "-qm", "x"]);
  const ws = { fs: nodeFs, dir };
  const c = await engine.createCheckpoint(ws, { sessionId: "s1", run: 1 });
  const session = {
    version: 1, id: "s1", workspaceId: "w", title: "Shared session", mode: "act", createdAt: 1, updatedAt: 1,
    messages: [{ id: "m1", role: "user", kind: "prompt", run: 1, createdAt: 1, content: [{ type: "text", text: "hi" }] }],
    checkpoints: [{ run: 1, runId: "r", ref: c.ref, oid: c.oid, createdAt: 1 }],
    usage: { inputTokens: 0, outputTokens: 0 }, runs: [], runCount: 1,
    approvals: { autoApprove: { read: true, edit: false, command: false }, allowedCommandPrefixes: [] },
  } as unknown as SessionData;
  return (await buildShare(ws, await planShare(engine, ws, session))).zip;
}
