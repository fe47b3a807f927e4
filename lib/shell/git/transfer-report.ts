/**
 * What fetch, push and pull print, in native git's shapes: the "From <url>" / "To <url>" header and one
 * line per ref (`   a1b2c3d..e4f5a6b  main -> origin/main`, ` * [new branch] …`, ` + …  (forced update)`,
 * ` ! [rejected] … (fetch first)`), and the hint git gives with a rejection. Also how a command reaches a
 * server: the transport the shell was built with, or a clear "no network here" when it has none.
 */
import type { PushUpdate, RefUpdate, Transport } from "../../git/remote-transfer";
import type { GitContext } from "./context";
import { GitError } from "./util";

export function transportOf(ctx: GitContext, command: string): Transport {
  const make = ctx.options.transport;
  if (!make) throw new GitError(`fatal: git ${command} cannot reach a server from this shell (no network access here)\n`, 128);
  return make();
}

const short = (oid: string | null) => (oid ?? "").slice(0, 7);

function summary(kind: RefUpdate["kind"], from: string | null, to: string | null, what: "branch" | "tag"): { flag: string; text: string; note: string } {
  switch (kind) {
    case "new":
      return { flag: "*", text: `[new ${what}]`, note: "" };
    case "deleted":
      return { flag: "-", text: "[deleted]", note: "" };
    case "forced":
      return { flag: "+", text: `${short(from)}...${short(to)}`, note: "  (forced update)" };
    case "up-to-date":
      return { flag: "=", text: "[up to date]", note: "" };
    default:
      return { flag: " ", text: `${short(from)}..${short(to)}`, note: "" };
  }
}

function shortRef(ref: string): string {
  return ref.replace(/^refs\/(heads|tags|remotes)\//, "");
}

/** `git fetch`'s lines, after "From <url>" (nothing when nothing moved). */
export function fetchReport(url: string, updates: RefUpdate[]): string {
  if (updates.length === 0) return "";
  const rows = updates.map((u) => {
    const tag = u.ref.startsWith("refs/tags/");
    const s = summary(u.kind, u.from, u.to, tag ? "tag" : "branch");
    const local = shortRef(u.ref);
    const theirs = tag ? local : local.slice(local.indexOf("/") + 1);
    return { ...s, from: u.kind === "deleted" ? "(none)" : theirs, to: local };
  });
  const wText = Math.max(17, ...rows.map((r) => r.text.length));
  // git pads the name column to at least 10.
  const wFrom = Math.max(10, ...rows.map((r) => r.from.length));
  return `From ${url}\n` + rows.map((r) => ` ${r.flag} ${r.text.padEnd(wText)} ${r.from.padEnd(wFrom)} -> ${r.to}${r.note}\n`).join("");
}

/** `git push`'s lines, after "To <url>". */
export function pushReport(url: string, updates: PushUpdate[]): string {
  const moved = updates.filter((u) => u.kind !== "up-to-date");
  if (moved.length === 0) return "Everything up-to-date\n";
  const rows = moved.map((u) => {
    const tag = u.remoteRef.startsWith("refs/tags/");
    const s = summary(u.kind, u.from, u.to, tag ? "tag" : "branch");
    const theirs = shortRef(u.remoteRef);
    return { ...s, refs: u.kind === "deleted" ? theirs : `${shortRef(u.local ?? theirs)} -> ${theirs}`, note: u.kind === "forced" ? " (forced update)" : "" };
  });
  const wText = Math.max(17, ...rows.map((r) => r.text.length));
  return `To ${url}\n` + rows.map((r) => ` ${r.flag} ${r.text.padEnd(wText)} ${r.refs}${r.note}\n`).join("");
}

const HINTS: Record<string, string> = {
  "fetch-first":
    "hint: Updates were rejected because the remote contains work that you do not\nhint: have locally. This is usually caused by another repository pushing\nhint: to the same ref. You may want to first integrate the remote changes\nhint: (e.g., 'git pull ...') before pushing again.\n",
  "non-fast-forward":
    "hint: Updates were rejected because the tip of your current branch is behind\nhint: its remote counterpart. Integrate the remote changes (e.g.\nhint: 'git pull ...') before pushing again.\n",
  "tag-exists": "hint: Updates were rejected because the tag already exists in the remote.\n",
};

/** A rejected push, as git prints it (exit code 1). */
export function rejectionReport(url: string, error: { message: string; reason?: string }): string {
  const m = /^(\[[^\]]+\]) (.*)$/.exec(error.message);
  const line = m ? `${m[1]!.padEnd(17)} ${m[2]}` : error.message;
  return `To ${url}\n ! ${line}\nerror: failed to push some refs to '${url}'\n${HINTS[error.reason ?? ""] ?? ""}`;
}
