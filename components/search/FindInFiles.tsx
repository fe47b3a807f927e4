"use client";
import { useEffect, useRef, useState } from "react";
import type { WorkspaceFs } from "@/lib/fs/workspace-fs";
import { findInFiles, type FindMatch, type FindResult } from "@/lib/search/find-in-files";
import { searchFieldsFilter } from "@/lib/search/path-glob";
import { applyReplace, planReplace, undoReplace, type ReplaceOutcome, type ReplacePlan } from "@/lib/search/replace-in-files";
import type { GitDecoration } from "@/lib/workspaces/tree-model";
import { plural, ReplacePreview } from "./ReplacePreview";

/** Matching lines shown at first, and added by each "Show more". */
const PAGE = 2000;

/**
 * Ctrl+Shift+F: search every text file; results grouped by file; click a line to jump to it.
 * Replace all shows a preview of every change first, and the replace it applies can be undone.
 */
export function FindInFiles(props: {
  wsfs: WorkspaceFs;
  decorations: Map<string, GitDecoration>;
  focusNonce: number;
  readOnly: boolean;
  /** Why `path` must not be rewritten now (unsaved edits in the editor), if so. */
  replaceBlocked: (path: string) => string | undefined;
  onJump: (match: FindMatch) => void;
}) {
  const [query, setQuery] = useState("");
  const [regex, setRegex] = useState(false);
  const [caseSensitive, setCaseSensitive] = useState(false);
  const [wholeWord, setWholeWord] = useState(false);
  const [include, setInclude] = useState("");
  const [exclude, setExclude] = useState("");
  // Pages asked for belong to one search: another query or option starts from the first page.
  const searchKey = JSON.stringify([query, regex, caseSensitive, wholeWord, include, exclude]);
  const [more, setMore] = useState({ key: "", pages: 0 });
  const limit = PAGE * (1 + (more.key === searchKey ? more.pages : 0));
  const [result, setResult] = useState<FindResult>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const controller = useRef<AbortController | null>(null);
  const shownKey = useRef("");
  const [replaceOpen, setReplaceOpen] = useState(false);
  const [replacement, setReplacement] = useState("");
  // A preview belongs to the search and replacement it was made for; changing either drops it.
  const [preview, setPreview] = useState<{ key: string; plan: ReplacePlan }>();
  const [replaced, setReplaced] = useState<{ outcome: ReplaceOutcome; message: string }>();
  const [replacing, setReplacing] = useState(false);
  const replaceKey = JSON.stringify([searchKey, replacement]);
  const shownPlan = preview?.key === replaceKey ? preview.plan : undefined;

  // One replace step at a time; a failure is said where search errors are.
  const step = async (work: () => Promise<void>) => {
    setReplacing(true);
    try {
      await work();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setReplacing(false);
    }
  };
  const previewReplace = () =>
    step(async () => {
      const wanted = searchFieldsFilter(include, exclude);
      const plan = await planReplace(props.wsfs, query, replacement, {
        regex,
        caseSensitive,
        wholeWord,
        skip: (p) => props.decorations.get(p) === "ignored" || !wanted(p),
        blocked: props.replaceBlocked,
      });
      setPreview({ key: replaceKey, plan });
      setReplaced(undefined);
      setError(undefined);
    });
  const apply = (plan: ReplacePlan, paths: Set<string>) =>
    step(async () => {
      const outcome = await applyReplace(props.wsfs, plan, paths);
      const count = outcome.written.reduce((n, f) => n + f.count, 0);
      const left = outcome.changedSincePreview.length ? ` Left alone, changed since the preview: ${outcome.changedSincePreview.join(", ")}.` : "";
      setReplaced({ outcome, message: `Replaced ${plural(count, "occurrence")} in ${plural(outcome.written.length, "file")}.${left}` });
      setPreview(undefined);
    });
  const undo = (outcome: ReplaceOutcome) =>
    step(async () => {
      const changed = await undoReplace(props.wsfs, outcome);
      const left = changed.length ? ` Left alone, edited since the replace: ${changed.join(", ")}.` : "";
      setReplaced({ outcome: { written: [], changedSincePreview: [] }, message: `Put back ${plural(outcome.written.length - changed.length, "file")}.${left}` });
    });

  useEffect(() => {
    input.current?.focus();
    input.current?.select();
  }, [props.focusNonce]);

  useEffect(() => {
    controller.current?.abort();
    if (!query) {
      setResult(undefined);
      setError(undefined);
      return;
    }
    const ctrl = new AbortController();
    controller.current = ctrl;
    const timer = setTimeout(async () => {
      setBusy(true);
      // Another query's results are not shown under this one while it runs ("Show more" keeps them).
      if (shownKey.current !== searchKey) setResult(undefined);
      shownKey.current = searchKey;
      try {
        const wanted = searchFieldsFilter(include, exclude);
        let shownAt = 0;
        let shownCount = 0;
        const r = await findInFiles(props.wsfs, query, {
          regex,
          caseSensitive,
          wholeWord,
          maxResults: limit,
          signal: ctrl.signal,
          skip: (p) => props.decorations.get(p) === "ignored" || !wanted(p),
          skipDir: (p) => props.decorations.get(p) === "ignored",
          // First results at once, then at most ten redraws a second while the search goes on.
          onProgress: (partial) => {
            const now = performance.now();
            const firstFound = shownCount === 0 && partial.matches.length > 0;
            if (ctrl.signal.aborted || (!firstFound && shownAt && now - shownAt < 100)) return;
            shownAt = now;
            shownCount = partial.matches.length;
            setResult({ ...partial, matches: [...partial.matches] });
            setError(undefined);
          },
        });
        if (!ctrl.signal.aborted) {
          setResult(r);
          setError(undefined);
        }
      } catch (e) {
        if (!ctrl.signal.aborted) setError((e as Error).message);
      } finally {
        if (!ctrl.signal.aborted) setBusy(false);
      }
    }, 200);
    return () => {
      clearTimeout(timer);
      ctrl.abort();
    };
  }, [query, regex, caseSensitive, wholeWord, include, exclude, limit, props.wsfs, props.decorations, replaced]);

  const groups = new Map<string, FindMatch[]>();
  for (const m of result?.matches ?? []) {
    const list = groups.get(m.path);
    if (list) list.push(m);
    else groups.set(m.path, [m]);
  }

  return (
    <div className="search-panel" role="search">
      <div className="search-row">
        <button className="search-replace-toggle" aria-label="Toggle Replace" aria-expanded={replaceOpen} title="Toggle Replace" onClick={() => setReplaceOpen(!replaceOpen)}>
          {replaceOpen ? "▾" : "▸"}
        </button>
        <input ref={input} type="search" placeholder="Search in files" aria-label="Search in files" value={query} onChange={(e) => setQuery(e.target.value)} />
      </div>
      {replaceOpen && (
        <div className="search-row">
          <input
            type="text"
            placeholder={regex ? "Replace ($1, $& for groups)" : "Replace"}
            aria-label="Replace"
            value={replacement}
            onChange={(e) => setReplacement(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === "Enter" && query && !props.readOnly) void previewReplace();
            }}
          />
          <button
            disabled={!query || props.readOnly || replacing}
            title={props.readOnly ? "This workspace is read-only here" : "Preview every change, then replace"}
            onClick={() => void previewReplace()}
          >
            Replace all…
          </button>
        </div>
      )}
      <div className="search-options">
        <button aria-pressed={caseSensitive} title="Match case" onClick={() => setCaseSensitive(!caseSensitive)}>
          Aa
        </button>
        <button aria-pressed={wholeWord} title="Whole word" onClick={() => setWholeWord(!wholeWord)}>
          ab
        </button>
        <button aria-pressed={regex} title="Regular expression" onClick={() => setRegex(!regex)}>
          .*
        </button>
      </div>
      <input type="text" placeholder="files to include (e.g. src, *.ts)" aria-label="Files to include" value={include} onChange={(e) => setInclude(e.target.value)} />
      <input type="text" placeholder="files to exclude (e.g. *.test.ts, docs)" aria-label="Files to exclude" value={exclude} onChange={(e) => setExclude(e.target.value)} />
      {error && <div className="error" role="alert">{error}</div>}
      {replaceOpen && shownPlan && (
        <ReplacePreview key={replaceKey} plan={shownPlan} replacement={replacement} busy={replacing} onApply={(paths) => void apply(shownPlan, paths)} onCancel={() => setPreview(undefined)} />
      )}
      {replaced && (
        <div className="banner" role="status">
          {replaced.message}{" "}
          {replaced.outcome.written.length > 0 && (
            <button className="link" disabled={replacing} onClick={() => void undo(replaced.outcome)}>
              Undo
            </button>
          )}
          <button className="link" aria-label="Dismiss" onClick={() => setReplaced(undefined)}>
            ×
          </button>
        </div>
      )}
      {result && (
        <div className="muted" aria-live="polite" data-testid="search-summary">
          {busy ? `Searching… ${result.filesDone.toLocaleString("en")}${result.listed ? ` of ${result.filesTotal.toLocaleString("en")}` : ""} files · ` : ""}
          {result.matches.length.toLocaleString("en")} result{result.matches.length === 1 ? "" : "s"} in {groups.size.toLocaleString("en")} file{groups.size === 1 ? "" : "s"}
          {result.truncated ? " (more not shown)" : ""}
          {result.filesTooLarge > 0 ? ` · ${result.filesTooLarge} file${result.filesTooLarge === 1 ? "" : "s"} over 128 MB not searched` : ""}
        </div>
      )}
      <div className="search-results" role="list" aria-label="Search results">
        {[...groups].map(([path, matches]) => (
          <div key={path} role="listitem">
            <div className="search-file">{path}</div>
            {matches.map((m) => (
              <div key={`${m.line}:${m.column}`} className="search-hit" title={`${path}:${m.line}`} onClick={() => props.onJump(m)}>
                <span className="muted">{m.line}: </span>
                {m.preview}
              </div>
            ))}
          </div>
        ))}
      </div>
      {result?.truncated && !busy && (
        <button className="search-more" onClick={() => setMore({ key: searchKey, pages: limit / PAGE })}>
          Show {PAGE.toLocaleString("en")} more
        </button>
      )}
    </div>
  );
}
