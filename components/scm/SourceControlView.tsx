"use client";
import { Fragment, useState, type KeyboardEvent } from "react";
import type { Change } from "@/lib/scm/porcelain";
import { changeLabel, type DiscardResult, type SourceControl } from "@/lib/scm/source-control";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { useSourceControl, type ScmAction } from "./useSourceControl";
import { CredentialList } from "./CredentialList";
import { HistoryGraph } from "./HistoryGraph";
import { HunkList } from "./HunkList";

const LETTER_TITLE: Record<string, string> = {
  M: "Modified",
  A: "Added",
  D: "Deleted",
  R: "Renamed",
  C: "Copied",
  T: "Type changed",
  U: "Untracked",
};

type Row = { key: string; path: string; letter: string; label: string };

/**
 * The Source Control view (VS Code's habits): the branch against its upstream with Fetch / Pull
 * / Push / Sync, a commit box (Ctrl+Enter), merge conflicts, staged changes and changes with
 * stage / unstage / discard per file and per group. Every action is a git command of the
 * terminal's git (lib/scm); its output is in the view's Output log.
 */
export function SourceControlView(props: {
  ws: WorkspaceState;
  readOnly: boolean;
  onOpenDiff: (path: string) => void;
  onOpenFile: (path: string) => void;
  onOpenMerge: (path: string) => void;
  onError: (e: unknown) => void;
  onDone: () => void;
}) {
  const { ws, readOnly } = props;
  const { scm, status, statusError, busy, outputs, act } = useSourceControl(ws, readOnly);
  const [message, setMessage] = useState("");
  const [amend, setAmend] = useState(false);
  const [askStageAll, setAskStageAll] = useState(false);
  /** The last undoable discard or conflict delete, for the banner's Undo. */
  const [discarded, setDiscarded] = useState<DiscardResult & { verb: "Discarded" | "Deleted" }>();
  const [note, setNote] = useState<string>();
  /** Rows showing their hunks ("staged:path" / "work:path"). */
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set());
  const toggleHunks = (key: string) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (!next.delete(key)) next.add(key);
      return next;
    });
  const hunksOf = (r: Row, staged: boolean) =>
    expanded.has(r.key) && (
      <li className="scm-hunks-row">
        <HunkList
          scm={scm}
          path={r.path}
          staged={staged}
          refreshKey={status}
          disabled={disabled}
          onHunk={(h) => void run("stage", (s) => (staged ? s.unstageHunk(r.path, h) : s.stageHunk(r.path, h)))}
        />
      </li>
    );

  const run = <T,>(name: ScmAction, fn: (s: SourceControl) => Promise<T>, done?: string): Promise<T | undefined> =>
    act(name, fn).then(
      (r) => {
        setNote(done);
        props.onDone();
        return r;
      },
      (e) => {
        setNote(undefined);
        props.onError(e);
        return undefined;
      },
    );

  const staged: Row[] = (status?.staged ?? []).map((c) => row(c, "staged"));
  const changes: Row[] = [...(status?.unstaged ?? []).map((c) => row(c, "work")), ...(status?.untracked ?? []).map((p) => ({ key: `u:${p}`, path: p, letter: "U", label: p }))].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
  const conflicts = status?.conflicts ?? [];
  // Until git status is read the view cannot tell what a click would do (e.g. conclude a merge).
  const disabled = readOnly || busy !== undefined || status === undefined;
  const branch = status?.branch;

  const commit = async (all = false) => {
    setAskStageAll(false);
    if (!amend && !status?.merging && staged.length === 0 && !all) {
      if (changes.length === 0) return props.onError(new Error("There are no changes to commit."));
      setAskStageAll(true);
      return;
    }
    const r = await run("commit", (s) => s.commit(message, { amend, all }), amend ? "Amended the last commit." : "Committed.");
    if (r !== undefined) {
      setMessage("");
      setAmend(false);
    }
  };
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      if (!disabled) void commit();
    }
  };
  const discard = async (paths: string[]) => {
    const r = await run("discard", (s) => s.discard(paths));
    if (r) setDiscarded({ ...r, verb: "Discarded" });
  };
  const deleteConflicted = async (path: string) => {
    const r = await run("stage", (s) => s.deleteConflicted(path));
    if (r) setDiscarded({ ...r, verb: "Deleted" });
  };

  return (
    <div className="scm-view" role="region" aria-label="Source Control">
      <div className="scm-branch">
        <span className="mono" data-testid="scm-branch">
          {branch ? `⎇ ${branch}` : status ? "HEAD (detached)" : "reading git…"}
        </span>
        {status?.upstream && (
          <span className="muted" data-testid="scm-tracking" title={status.gone ? `${status.upstream} is gone` : `${status.ahead} to push, ${status.behind} to pull (as of the last fetch)`}>
            {status.gone ? `${status.upstream} (gone)` : `${status.upstream} ↑${status.ahead} ↓${status.behind}`}
          </span>
        )}
        {busy && (
          <span className="muted" role="status">
            {BUSY[busy]}
          </span>
        )}
      </div>
      <div className="scm-sync" role="toolbar" aria-label="Remote">
        <button disabled={disabled} onClick={() => void run("fetch", (s) => s.fetch(), "Fetched.")}>
          Fetch
        </button>
        <button disabled={disabled} onClick={() => void run("pull", (s) => s.pull(), "Pulled.")}>
          Pull
        </button>
        <button disabled={disabled} onClick={() => void run("push", (s) => s.push(), "Pushed.")}>
          Push
        </button>
        <button disabled={disabled} onClick={() => void run("sync", (s) => s.sync(), "In sync with the remote.")} title="Pull, then push">
          Sync
        </button>
      </div>
      <div className="scm-commit">
        <textarea
          aria-label="Commit message"
          placeholder={status?.merging ? "Merge: leave empty for git's merge message (Ctrl+Enter to commit)" : `Message (Ctrl+Enter to commit on '${branch ?? "HEAD"}')`}
          value={message}
          disabled={readOnly}
          onChange={(e) => setMessage(e.target.value)}
          onKeyDown={onKeyDown}
          rows={3}
        />
        <div className="scm-commit-row">
          <button className="primary" disabled={disabled} onClick={() => void commit()}>
            {amend ? "Commit (Amend)" : "Commit"}
          </button>
          <label>
            <input type="checkbox" checked={amend} disabled={readOnly} onChange={(e) => setAmend(e.target.checked)} /> Amend
          </label>
        </div>
        {askStageAll && (
          <div className="banner" role="alertdialog" aria-label="No staged changes">
            There are no staged changes to commit. Stage all your changes and commit them directly?{" "}
            <button className="link" onClick={() => void commit(true)}>
              Stage all and commit
            </button>{" "}
            <button className="link" onClick={() => setAskStageAll(false)}>
              Cancel
            </button>
          </div>
        )}
      </div>
      {note && (
        <div className="muted scm-note" role="status">
          {note}
        </div>
      )}
      {discarded && (
        <div className="banner" role="status">
          {discarded.verb} {discarded.paths.length === 1 ? discarded.paths[0] : `${discarded.paths.length} files`}.{" "}
          <button
            className="link"
            onClick={() => {
              const d = discarded;
              setDiscarded(undefined);
              void run("discard", () => d.undo(), d.verb === "Deleted" ? `Put ${d.paths[0]} back.` : "Put the discarded changes back.");
            }}
          >
            Undo
          </button>{" "}
          <button className="link" aria-label="Dismiss" onClick={() => setDiscarded(undefined)}>
            ×
          </button>
        </div>
      )}
      {statusError && (
        <div className="banner error" role="alert">
          {statusError}
        </div>
      )}
      {conflicts.length > 0 && (
        <Group title="Merge Changes" count={conflicts.length}>
          {conflicts.map((c) => (
            <li key={c.path} data-path={c.path}>
              <button className="scm-file" onClick={() => (c.code === "UU" || c.code === "AA" ? props.onOpenMerge(c.path) : c.code === "DD" ? undefined : props.onOpenFile(c.path))} title={`${c.path} — ${CONFLICT_TITLE[c.code] ?? "conflict"}`}>
                <span className="mono">{c.path}</span> <span className="scm-letter conflict">!</span>
              </button>
              {c.code === "UU" || c.code === "AA" ? (
                <button className="scm-icon" disabled={disabled} aria-label={`Mark ${c.path} resolved`} title="Mark resolved (stage)" onClick={() => void run("stage", (s) => s.stage([c.path]))}>
                  ✓
                </button>
              ) : (
                // No markers to edit: one side deleted the file (or alone added it). Keep the
                // version the merge left in the working tree, or delete the file (undoable).
                <>
                  <span className="muted scm-conflict-kind">{CONFLICT_TITLE[c.code]}</span>
                  {c.code !== "DD" && (
                    <button className="scm-icon" disabled={disabled} aria-label={`Keep ${c.path}`} title="Keep the file as it is in the working tree" onClick={() => void run("stage", (s) => s.keepConflicted(c.path), `Kept ${c.path}.`)}>
                      ✓
                    </button>
                  )}
                  <button className="scm-icon" disabled={disabled} aria-label={`Delete ${c.path}`} title="Delete the file (undoable)" onClick={() => void deleteConflicted(c.path)}>
                    🗑
                  </button>
                </>
              )}
            </li>
          ))}
        </Group>
      )}
      {staged.length > 0 && (
        <Group
          title="Staged Changes"
          count={staged.length}
          actions={
            <button className="scm-icon" disabled={disabled} aria-label="Unstage all changes" title="Unstage all" onClick={() => void run("unstage", (s) => s.unstage(staged.map((r) => r.path)))}>
              −
            </button>
          }
        >
          {staged.map((r) => (
            <Fragment key={r.key}>
              <FileRow row={r} onOpen={() => props.onOpenDiff(r.path)} hunksShown={expanded.has(r.key)} onToggleHunks={r.letter === "M" ? () => toggleHunks(r.key) : undefined}>
                <button className="scm-icon" disabled={disabled} aria-label={`Unstage ${r.path}`} title="Unstage" onClick={() => void run("unstage", (s) => s.unstage(unstagePaths(status!.staged, r.path)))}>
                  −
                </button>
              </FileRow>
              {hunksOf(r, true)}
            </Fragment>
          ))}
        </Group>
      )}
      <Group
        title="Changes"
        count={changes.length}
        actions={
          changes.length > 0 && (
            <>
              <button className="scm-icon" disabled={disabled} aria-label="Discard all changes" title="Discard all (undoable)" onClick={() => void discard(changes.map((r) => r.path))}>
                ↶
              </button>
              <button className="scm-icon" disabled={disabled} aria-label="Stage all changes" title="Stage all" onClick={() => void run("stage", (s) => s.stageAll())}>
                +
              </button>
            </>
          )
        }
      >
        {changes.map((r) => (
          <Fragment key={r.key}>
            <FileRow
              row={r}
              onOpen={() => (r.letter === "D" ? props.onOpenDiff(r.path) : r.letter === "U" ? props.onOpenFile(r.path) : props.onOpenDiff(r.path))}
              hunksShown={expanded.has(r.key)}
              onToggleHunks={r.letter === "M" ? () => toggleHunks(r.key) : undefined}
            >
              <button className="scm-icon" disabled={disabled} aria-label={`Discard changes in ${r.path}`} title="Discard changes (undoable)" onClick={() => void discard([r.path])}>
                ↶
              </button>
              <button className="scm-icon" disabled={disabled} aria-label={`Stage ${r.path}`} title="Stage" onClick={() => void run("stage", (s) => s.stage([r.path]))}>
                +
              </button>
            </FileRow>
            {hunksOf(r, false)}
          </Fragment>
        ))}
        {status && changes.length === 0 && <li className="muted scm-empty">No changes.</li>}
      </Group>
      <HistoryGraph scm={scm} refreshKey={status} />
      <CredentialList />
      {outputs.length > 0 && (
        <details className="scm-output">
          <summary>Output ({outputs.length})</summary>
          <pre data-testid="scm-output">
            {outputs.map((o, i) => (
              <span key={i} className={o.ok ? undefined : "error"}>
                {`$ ${o.command}\n${o.text ? o.text + "\n" : ""}`}
              </span>
            ))}
          </pre>
        </details>
      )}
    </div>
  );
}

/** git status's words for each unmerged state; only UU and AA leave markers to resolve in the merge editor (the others: keep or delete). */
const CONFLICT_TITLE: Record<string, string> = {
  UU: "both modified",
  AA: "both added",
  DD: "both deleted",
  AU: "added by us",
  UA: "added by them",
  DU: "deleted by us",
  UD: "deleted by them",
};

const BUSY: Record<ScmAction, string> = {
  refresh: "Reading…",
  stage: "Staging…",
  unstage: "Unstaging…",
  discard: "Discarding…",
  commit: "Committing…",
  fetch: "Fetching…",
  pull: "Pulling…",
  push: "Pushing…",
  sync: "Syncing…",
};

function row(c: Change, side: "staged" | "work"): Row {
  return { key: `${side}:${c.path}`, path: c.path, letter: c.letter, label: changeLabel(c) };
}

/** A staged rename is unstaged as both of its paths (else the old path stays deleted in the index). */
function unstagePaths(staged: Change[], path: string): string[] {
  const c = staged.find((s) => s.path === path);
  return c?.from ? [c.from, c.path] : [path];
}

function Group(props: { title: string; count: number; actions?: React.ReactNode; children: React.ReactNode }) {
  const [open, setOpen] = useState(true);
  return (
    <section className="scm-group" aria-label={props.title}>
      <div className="scm-group-head">
        <button className="scm-group-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? "▾" : "▸"} {props.title}
        </button>
        <span className="scm-group-actions">{props.actions}</span>
        <span className="badge" aria-label={`${props.count} file${props.count === 1 ? "" : "s"}`}>
          {props.count}
        </span>
      </div>
      {open && <ul className="scm-files">{props.children}</ul>}
    </section>
  );
}

function FileRow(props: { row: Row; onOpen: () => void; hunksShown?: boolean; onToggleHunks?: () => void; children: React.ReactNode }) {
  const { row: r } = props;
  const name = r.path.split("/").pop()!;
  const dir = r.path.includes("/") ? r.path.slice(0, r.path.lastIndexOf("/")) : "";
  return (
    <li data-path={r.path}>
      {props.onToggleHunks ? (
        <button className="scm-icon scm-hunk-toggle" aria-expanded={!!props.hunksShown} aria-label={`${props.hunksShown ? "Hide" : "Show"} hunks of ${r.path}`} title="Stage or unstage part of this file" onClick={props.onToggleHunks}>
          {props.hunksShown ? "▾" : "▸"}
        </button>
      ) : (
        <span className="scm-hunk-toggle" />
      )}
      <button className="scm-file" onClick={props.onOpen} title={`${r.label} — ${LETTER_TITLE[r.letter] ?? r.letter}`}>
        <span>{name}</span> {dir && <span className="muted">{dir}</span>}
      </button>
      <span className="scm-row-actions">{props.children}</span>
      <span className={`scm-letter l-${r.letter}`} aria-label={LETTER_TITLE[r.letter] ?? r.letter}>
        {r.letter}
      </span>
    </li>
  );
}
