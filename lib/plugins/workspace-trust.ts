/**
 * Workspace trust: whether the code a workspace carries (.tabula/plugins, .tabula/hooks) may run,
 * and exactly which contents of it the user accepted (path → content hash). Kept per workspace
 * in this browser (localStorage), out of reach of the agent's tools, its shell and sandboxed
 * plugins, which only see the workspace's files.
 *
 * With no record yet, a workspace made here (empty, sample) is trusted with nothing accepted,
 * so any code file in it is shown for review before it first runs; every other workspace is
 * restricted until the user decides.
 */
import type { CodeFile } from "./workspace-code";

export type TrustDecision = "trusted" | "restricted";
/** `decision` absent: nobody has decided yet (the banner asks). */
export type TrustRecord = { decision?: TrustDecision; accepted: Record<string, string> };
export type CodeChange = { path: string; change: "added" | "changed" | "removed"; hash?: string };

type Storage = Pick<globalThis.Storage, "getItem" | "setItem" | "removeItem">;

export class WorkspaceTrustStore {
  constructor(
    private readonly storage: Storage,
    private readonly workspaceId: string,
    private readonly opts: { trustedByDefault: boolean },
  ) {}

  /** The storage key of this workspace's record (another tab changing it means: reload). */
  get key() {
    return `tabula:workspace-trust:${this.workspaceId}`;
  }

  get(): TrustRecord {
    const fallback: TrustRecord = this.opts.trustedByDefault ? { decision: "trusted", accepted: {} } : { accepted: {} };
    let raw: unknown;
    try {
      raw = JSON.parse(this.storage.getItem(this.key) ?? "null");
    } catch {
      return fallback;
    }
    if (!raw || typeof raw !== "object") return fallback;
    const r = raw as { decision?: unknown; accepted?: unknown };
    const decision = r.decision === "trusted" || r.decision === "restricted" ? r.decision : undefined;
    const accepted: Record<string, string> = {};
    if (decision === "trusted" && r.accepted && typeof r.accepted === "object") {
      for (const [p, h] of Object.entries(r.accepted as Record<string, unknown>)) if (typeof h === "string") accepted[p] = h;
    }
    return decision ? { decision, accepted } : fallback;
  }

  private save(r: TrustRecord) {
    this.storage.setItem(this.key, JSON.stringify(r));
  }

  /** Trust the workspace with exactly these contents (the ones the user was shown). */
  trust(files: readonly Pick<CodeFile, "path" | "hash">[]): TrustRecord {
    const r: TrustRecord = { decision: "trusted", accepted: Object.fromEntries(files.map((f) => [f.path, f.hash])) };
    this.save(r);
    return r;
  }

  /** Stay restricted, or revoke trust: nothing of the workspace's code runs, nothing stays accepted. */
  restrict(): TrustRecord {
    const r: TrustRecord = { decision: "restricted", accepted: {} };
    this.save(r);
    return r;
  }

  /** Accept reviewed changes of a trusted workspace (removed files are forgotten). No-op when restricted. */
  accept(changes: readonly CodeChange[]): TrustRecord {
    const r = this.get();
    if (r.decision !== "trusted") return r;
    const accepted = { ...r.accepted };
    for (const c of changes) {
      if (c.change === "removed") delete accepted[c.path];
      else if (c.hash) accepted[c.path] = c.hash;
    }
    const next: TrustRecord = { decision: "trusted", accepted };
    this.save(next);
    return next;
  }

  /** Forget the record (the workspace was deleted). */
  clear(): void {
    this.storage.removeItem(this.key);
  }
}

/**
 * Split the workspace's code into what the user accepted (unchanged since) and what changed
 * since they did: added, changed (different hash) or removed files.
 */
export function reviewCode(files: readonly CodeFile[], accepted: Readonly<Record<string, string>>): { unchanged: CodeFile[]; changes: CodeChange[] } {
  const unchanged: CodeFile[] = [];
  const changes: CodeChange[] = [];
  const seen = new Set<string>();
  for (const f of files) {
    seen.add(f.path);
    const known = accepted[f.path];
    if (known === f.hash && f.hash !== "") unchanged.push(f);
    else changes.push({ path: f.path, change: known === undefined ? "added" : "changed", hash: f.hash });
  }
  for (const path of Object.keys(accepted).sort()) if (!seen.has(path)) changes.push({ path, change: "removed" });
  return { unchanged, changes };
}
