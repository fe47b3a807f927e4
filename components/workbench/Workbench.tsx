"use client";
import { WorkspaceDeletedDialog } from "./WorkspaceDeletedDialog";
import { CredentialPromptHost } from "@/components/scm/CredentialDialog";
import { SyncStatus } from "@/components/scm/SyncStatus";
import { SourceControlView } from "@/components/scm/SourceControlView";
import { MergeEditor } from "@/components/scm/MergeEditor";
import { useCallback, useEffect, useMemo, useState } from "react";
import { useWorkspace } from "./useWorkspace";
import { SplitPane, DockSplit } from "./SplitPane";
import { PreviewPane } from "@/components/preview/PreviewPane";
import { PreviewController } from "@/lib/preview/controller";
import dynamic from "next/dynamic";

// The agent and the terminal (xterm + just-bash) are lazy chunks.
const AgentPanel = dynamic(() => import("@/components/agent/AgentPanel"), {
  ssr: false,
  loading: () => <div className="muted" style={{ padding: 8 }}>Loading agent…</div>,
});
const TerminalPanel = dynamic(() => import("@/components/terminal/TerminalPanel").then((m) => m.TerminalPanel), {
  ssr: false,
  loading: () => <div className="muted" style={{ padding: 8 }}>Loading terminal…</div>,
});
// Feeds the workspace's TS/JS files to Monaco's TypeScript service (brings Monaco: lazy).
const TypeScriptWorkspace = dynamic(() => import("@/components/editor/TypeScriptWorkspace"), { ssr: false });
import { FileTree, type TreeIntent } from "@/components/tree/FileTree";
import { ProblemsPanel } from "@/components/problems/ProblemsPanel";
import { ProblemsCount } from "@/components/problems/ProblemsCount";
import { EditorArea, type DiffView } from "@/components/editor/EditorArea";
import type { EditorPositions, RevealRequest } from "@/components/editor/CodeEditor";
import { QuickOpen } from "@/components/search/QuickOpen";
import { FindInFiles } from "@/components/search/FindInFiles";
import { BranchPicker } from "./BranchPicker";
import { allFilePaths } from "@/lib/workspaces/tree-model";
import { childPath, deleteWithUndo, moveTarget, undoDelete, validateNewName, type DeletedSnapshot } from "@/lib/workspaces/file-ops";
import { diffFileAgainstHead } from "@/lib/git";
import { textBeforeEdit } from "@/lib/editor/edit-diff";
import { isDirty } from "@/lib/editor/documents";
import { CursorStatus } from "@/components/editor/CursorStatus";
import { readViewState, rememberPosition, updateViewState } from "@/lib/workbench/view-state";
import { EMPTY_REVIEW, type ReviewState } from "@/lib/modes";
import type { LineMark } from "@/components/editor/CodeEditor";
import { exposeTestHooks } from "@/components/services/browser-env";
import { CommandsContext, useCommandRegistry } from "@/components/palette/CommandsContext";
import { CommandPalette } from "@/components/palette/CommandPalette";
import { useWorkbenchCommands } from "@/components/palette/useWorkbenchCommands";
import { useRecentFiles } from "@/components/palette/useRecentFiles";
import { setTabWorkspaceName } from "./tab-title";
import { describeDrop, dropIntoWorkspace } from "@/lib/workspaces/drop-files";
import { readDropped } from "@/lib/workspaces/dropped-entries";

type Toast = { message: string; error?: boolean; undo?: DeletedSnapshot };

/** `/w/<id>`: explorer and search on the left, tabs and Monaco in the centre. */
export default function Workbench({ id }: { id: string }) {
  const { workspace: ws, error } = useWorkspace(id);
  const [sidebar, setSidebar] = useState<"explorer" | "search" | "scm" | "problems">("explorer");
  const [searchFocus, setSearchFocus] = useState(0);
  const [quickOpen, setQuickOpen] = useState(false);
  const [reveal, setReveal] = useState<RevealRequest>();
  const [diff, setDiff] = useState<DiffView>();
  const [mergePath, setMergePath] = useState<string>();
  const [importNotesSeen, setImportNotesSeen] = useState(true);
  const [toast, setToast] = useState<Toast>();
  const [activePath, setActivePath] = useState<string>();
  const [dockOpen, setDockOpen] = useState(false);
  const [dockMounted, setDockMounted] = useState(false);
  const [agentOpen, setAgentOpen] = useState(true);
  const [previewOpen, setPreviewOpen] = useState(false);
  // The agent's `preview` tool reaches the pane through this (it opens the pane when closed).
  const previewController = useMemo(() => new PreviewController(() => setPreviewOpen(true)), []);
  const [review, setReview] = useState<ReviewState>(EMPTY_REVIEW);
  const toggleDock = useCallback(() => {
    setDockMounted(true);
    setDockOpen((o) => !o);
  }, []);

  useEffect(exposeTestHooks, []);

  // What an import left out or changed is said once, until dismissed.
  const importNotesKey = ws ? `tabula.importNotesSeen.${ws.meta.id}` : undefined;
  useEffect(() => {
    if (importNotesKey) setImportNotesSeen(localStorage.getItem(importNotesKey) === "1");
  }, [importNotesKey]);

  useEffect(() => {
    if (!ws) return;
    setTabWorkspaceName(ws.meta.name);
    const unsubscribe = ws.docs.subscribe(() => setActivePath(ws.docs.active));
    return () => {
      unsubscribe();
      setTabWorkspaceName(undefined);
    };
  }, [ws]);

  // The tabs of the last visit come back (those whose files still exist), the one in front too;
  // a deep link (/w/<id>?open=path/to/file) opens its file in front of them. Only once that is
  // done does the tab list start being remembered again, so a reload mid-way forgets nothing.
  useEffect(() => {
    if (!ws) return;
    const { docs, wsfs } = ws;
    const id = ws.meta.id;
    let restored = false;
    // The store emits on every keystroke; the tab list is written only when it changed.
    let written = "";
    const remember = () => {
      if (!restored) return;
      const tabs = docs.list().map((d) => d.path);
      const key = JSON.stringify([tabs, docs.active]);
      if (key === written) return;
      written = key;
      updateViewState(id, (s) => {
        s.tabs = tabs;
        s.active = docs.active;
      });
    };
    const off = docs.subscribe(remember);
    void (async () => {
      const saved = readViewState(id);
      for (const path of saved.tabs) {
        const stat = await wsfs.stat(path).catch(() => undefined);
        if (stat?.type === "file") await docs.open(path).catch(() => undefined);
      }
      if (saved.active && docs.get(saved.active)) await docs.open(saved.active);
      const link = new URLSearchParams(location.search).get("open");
      if (link) await docs.open(link).catch((e) => setToast({ message: (e as Error).message, error: true }));
      restored = true;
      remember();
    })();
    return off;
  }, [ws?.docs]); // eslint-disable-line react-hooks/exhaustive-deps

  const workspaceId = ws?.meta.id;
  // The dock comes back open if it was; whether it shows is remembered as it changes.
  useEffect(() => {
    if (workspaceId && readViewState(workspaceId).terminals?.open) {
      setDockMounted(true);
      setDockOpen(true);
    }
  }, [workspaceId]);
  useEffect(() => {
    if (!workspaceId || !dockMounted) return;
    updateViewState(workspaceId, (s) => {
      s.terminals = { cwds: [""], active: 0, ...s.terminals, open: dockOpen };
    });
  }, [workspaceId, dockMounted, dockOpen]);
  const positions = useMemo<EditorPositions | undefined>(
    () =>
      workspaceId
        ? {
            get: (path) => readViewState(workspaceId).positions[path],
            set: (path, at) => updateViewState(workspaceId, (s) => rememberPosition(s, path, at)),
          }
        : undefined,
    [workspaceId],
  );

  // Review findings as marks on their lines in the editor.
  const marks = useMemo<LineMark[]>(
    () =>
      review.findings
        .filter((f) => f.anchor && (f.status ?? "open") === "open")
        .map((f) => ({ path: f.anchor!.file, startLine: f.anchor!.startLine, endLine: f.anchor!.endLine, severe: f.priority === "P0" || f.priority === "P1", message: `${f.priority} ${f.kind}: ${f.body}` })),
    [review],
  );

  const files = useMemo(() => (ws ? allFilePaths(ws.tree) : []), [ws]);
  const readOnly = ws?.role !== "writer";

  const report = useCallback((e: unknown) => {
    console.error(e); // the stack, for whoever opens the devtools
    setToast({ message: (e as Error).message ?? String(e), error: true });
  }, []);
  /** An error banner is about the last thing that failed: the next thing that works clears it. */
  const clearError = useCallback(() => setToast((t) => (t?.error ? undefined : t)), []);

  const open = useCallback(
    async (path: string) => {
      if (!ws) return;
      setDiff(undefined);
      setMergePath(undefined);
      try {
        await ws.docs.open(path);
        clearError();
      } catch (e) {
        report(e);
      }
    },
    [ws, report, clearError],
  );

  const showDiff = useCallback(
    async (path: string) => {
      if (!ws) return;
      try {
        setMergePath(undefined);
        const d = await diffFileAgainstHead({ fs: ws.wsfs.fs, dir: ws.wsfs.dir }, path);
        if (d.binary) throw new Error(`${path} is binary: no text diff.`);
        const doc = ws.docs.get(path);
        setDiff({ path, original: d.head ?? "", modified: doc && !doc.readOnly ? doc.text : (d.work ?? ""), title: `${path.split("/").pop()} (HEAD ↔ working tree)` });
        clearError();
      } catch (e) {
        report(e);
      }
    },
    [ws, report, clearError],
  );

  /** The Monaco diff of one agent edit: the file before that edit ↔ now (HEAD ↔ now if it changed since). */
  const showEditDiff = useCallback(
    async (path: string, unifiedDiff: string) => {
      if (!ws) return;
      try {
        const current = (await ws.wsfs.exists(path)) ? await ws.wsfs.readText(path) : "";
        const before = textBeforeEdit(current, unifiedDiff);
        if (before === undefined) return await showDiff(path);
        setDiff({ path, original: before, modified: current, title: `${path.split("/").pop()} (agent edit)` });
      } catch (e) {
        report(e);
      }
    },
    [ws, showDiff, report],
  );

  // Warn before leaving with unsaved edits.
  useEffect(() => {
    if (!ws) return;
    const onBeforeUnload = (e: BeforeUnloadEvent) => {
      if (ws.docs.list().some((d) => !d.readOnly && d.text !== d.savedText)) e.preventDefault();
    };
    addEventListener("beforeunload", onBeforeUnload);
    return () => removeEventListener("beforeunload", onBeforeUnload);
  }, [ws]);

  const onIntent = useCallback(
    async (intent: TreeIntent) => {
      if (!ws) return;
      const { wsfs, docs } = ws;
      const perform = async () => {
        switch (intent.kind) {
          case "open":
            return await open(intent.path);
          case "diff":
            return await showDiff(intent.path);
          case "create": {
            const path = childPath(intent.parent, validateNewName(intent.name));
            if (await wsfs.exists(path)) throw new Error(`${path} already exists.`);
            if (intent.type === "dir") await wsfs.mkdir(path, { origin: "tree" });
            else {
              await wsfs.writeFile(path, "", { origin: "tree" });
              await wsfs.flush();
              await open(path);
            }
            return;
          }
          case "rename": {
            const parent = intent.path.includes("/") ? intent.path.slice(0, intent.path.lastIndexOf("/")) : "";
            const to = childPath(parent, validateNewName(intent.newName));
            await wsfs.rename(intent.path, to, { origin: "tree" });
            await wsfs.flush();
            docs.renamed(intent.path, to);
            return;
          }
          case "move": {
            const to = moveTarget(intent.path, intent.toDir);
            await wsfs.rename(intent.path, to, { origin: "tree" });
            await wsfs.flush();
            docs.renamed(intent.path, to);
            return;
          }
          case "drop": {
            const plan = await dropIntoWorkspace(wsfs, intent.toDir, await readDropped(intent.dropped));
            setToast({ message: describeDrop(intent.toDir, plan) });
            if (plan.writes.length === 1) await open(plan.writes[0]!.path);
            return;
          }
          case "delete": {
            const snapshot = await deleteWithUndo(wsfs, intent.path);
            for (const d of docs.list()) if (d.path === intent.path || d.path.startsWith(intent.path + "/")) docs.close(d.path);
            setToast({ message: `Deleted ${intent.path}`, undo: snapshot });
            return;
          }
        }
      };
      try {
        await perform();
        clearError();
      } catch (e) {
        report(e);
      } finally {
        void ws.refresh();
      }
    },
    [ws, open, showDiff, report, clearError],
  );

  // Every action of the workbench as a command (palette, keybindings); the panels add their own.
  const commands = useCommandRegistry();
  const recentFiles = useRecentFiles(ws?.meta.id, ws?.docs);
  const openAt = (path: string, line?: number, column = 1) =>
    void open(path).then(() => line && setReveal({ path, line, column, length: 0, nonce: Date.now() }));
  useWorkbenchCommands(commands, {
    ws,
    readOnly,
    activePath,
    quickOpen: () => setQuickOpen(true),
    findInFiles: () => {
      setSidebar("search");
      setSearchFocus((n) => n + 1);
    },
    showExplorer: () => setSidebar("explorer"),
    showSourceControl: () => setSidebar("scm"),
    toggleTerminal: toggleDock,
    toggleAgent: () => setAgentOpen((o) => !o),
    togglePreview: () => setPreviewOpen((o) => !o),
    create: (type, path) => onIntent({ kind: "create", parent: "", name: path, type }),
    compareWithHead: (path) => void showDiff(path),
  });

  if (error)
    return (
      <main className="start">
        <h1>Cannot open this workspace</h1>
        <p className="error" role="alert">{error}</p>
        <a href="/">Back to workspaces</a>
      </main>
    );
  if (!ws) return <main className="start muted">Opening workspace…</main>;

  return (
    <CommandsContext.Provider value={commands}>
    <div className="workbench">
      <header className="titlebar">
        <a href="/" title="All workspaces">
          ← Workspaces
        </a>
        <span className="name" data-testid="workspace-name">{ws.meta.name}</span>
        <BranchPicker ws={ws} readOnly={readOnly} onError={report} onDone={clearError} />
        <span className="spacer" />
        {readOnly && !ws.deleted && (
          <span className="badge" role="status" data-testid="reader-banner">
            Read-only: another tab is editing this workspace.{" "}
            <button className="link" onClick={() => void ws.takeOver().catch(report)}>
              Edit here instead
            </button>
          </span>
        )}
        <button onClick={() => setQuickOpen(true)} title="Quick open (Ctrl+P)">
          Go to file…
        </button>
        <button onClick={toggleDock} aria-pressed={dockOpen} title="Toggle terminal (Ctrl+`)">
          Terminal
        </button>
        <button onClick={() => setAgentOpen((o) => !o)} aria-pressed={agentOpen} title="Toggle the agent panel">
          Agent
        </button>
      </header>
      {ws.deleted && <WorkspaceDeletedDialog name={ws.meta.name} kept={ws.deleted.kept} error={ws.deleted.error} />}
      <CredentialPromptHost />
      <TypeScriptWorkspace wsfs={ws.wsfs} docs={ws.docs} />
      {ws.recovery && (
        <div className="banner" role="status" style={{ margin: "4px 8px" }}>
          A save was interrupted last time (tab closed or storage error); recovered: {ws.recovery.restored.join(", ")}.
        </div>
      )}
      {ws.restoreRecovery && (
        <div className={`banner${"error" in ws.restoreRecovery ? " error" : ""}`} role="status" data-testid="restore-recovery" style={{ margin: "4px 8px" }}>
          {"error" in ws.restoreRecovery
            ? `A checkpoint restore was interrupted last time and could not be rolled back yet: ${ws.restoreRecovery.error}. Your files before it are kept in refs/tabula/restore/.`
            : `A checkpoint restore was interrupted last time (the tab closed mid-way). It has been rolled back: ${ws.restoreRecovery.paths} file${ws.restoreRecovery.paths === 1 ? " is" : "s are"} as before the restore, nothing was lost. That state is also kept at ${ws.restoreRecovery.savedRef}.`}
        </div>
      )}
      {!importNotesSeen && ws.meta.origin.notes?.length ? (
        <div className="banner" role="status" data-testid="import-notes" style={{ margin: "4px 8px" }}>
          {ws.meta.origin.history ? "Imported with its git history. " : "Imported. "}
          {ws.meta.origin.notes.join(" ")}{" "}
          <button
            className="link"
            aria-label="Dismiss"
            onClick={() => {
              localStorage.setItem(importNotesKey!, "1");
              setImportNotesSeen(true);
            }}
          >
            ×
          </button>
        </div>
      ) : null}
      {toast && (
        <div className={`banner${toast.error ? " error" : ""}`} role={toast.error ? "alert" : "status"} style={{ margin: "4px 8px" }}>
          {toast.message}{" "}
          {toast.undo && (
            <button
              className="link"
              onClick={async () => {
                const snap = toast.undo!;
                setToast(undefined);
                await undoDelete(ws.wsfs, snap).catch(report);
                void ws.refresh();
              }}
            >
              Undo
            </button>
          )}
          <button className="link" aria-label="Dismiss" onClick={() => setToast(undefined)}>
            ×
          </button>
        </div>
      )}
      <SplitPane
        storageKey="tabula.agentWidth"
        fixed="right"
        initial={400}
        min={280}
        max={900}
        label="Resize agent panel"
        className="agent-pane"
        left={
      <SplitPane
            storageKey="tabula.sidebarWidth"
            initial={260}
            min={160}
            max={600}
            left={
              <>
                <div className="sidebar-tabs" role="tablist" aria-label="Side bar">
                  <button role="tab" aria-selected={sidebar === "explorer"} onClick={() => setSidebar("explorer")}>
                    Explorer
                  </button>
                  <button
                    role="tab"
                    aria-selected={sidebar === "search"}
                    onClick={() => {
                      setSidebar("search");
                      setSearchFocus((n) => n + 1);
                    }}
                  >
                    Search
                  </button>
                  {/* "Git" on the tab (four names fit the sidebar's width), its full name for assistive tech. */}
                  <button role="tab" aria-selected={sidebar === "scm"} onClick={() => setSidebar("scm")} aria-label="Source Control" title="Source Control (Ctrl+Shift+G)">
                    Git
                  </button>
                  <button role="tab" aria-selected={sidebar === "problems"} onClick={() => setSidebar("problems")}>
                    Problems
                  </button>
                </div>
                {sidebar === "problems" ? (
                  <ProblemsPanel
                    onJump={(p) => void open(p.path).then(() => setReveal({ path: p.path, line: p.line, column: p.column, length: p.endLine === p.line ? Math.max(0, p.endColumn - p.column) : 0, nonce: Date.now() }))}
                  />
                ) : sidebar === "scm" ? (
                  <SourceControlView ws={ws} readOnly={readOnly} onOpenDiff={(p) => void showDiff(p)} onOpenFile={(p) => void open(p)} onOpenMerge={(p) => { setDiff(undefined); setMergePath(p); }} onError={report} onDone={clearError} />
                ) : sidebar === "explorer" ? (
                  <FileTree
                    nodes={ws.tree}
                    loading={!ws.loaded.tree}
                    decorations={ws.decorations}
                    activePath={activePath}
                    readOnly={readOnly}
                    initialExpanded={() => readViewState(ws.meta.id).expanded}
                    onExpandedChange={(paths) =>
                      updateViewState(ws.meta.id, (s) => {
                        s.expanded = paths;
                      })
                    }
                    onIntent={onIntent}
                  />
                ) : (
                  <FindInFiles
                    wsfs={ws.wsfs}
                    decorations={ws.decorations}
                    focusNonce={searchFocus}
                    readOnly={readOnly}
                    replaceBlocked={(p) => {
                      const doc = ws.docs.get(p);
                      return doc && isDirty(doc) ? "it has unsaved changes in the editor (save or revert them first)" : undefined;
                    }}
                    onJump={async (m) => {
                      await open(m.path);
                      setReveal({ path: m.path, line: m.line, column: m.column, length: m.length, nonce: Date.now() });
                    }}
                  />
                )}
              </>
            }
            right={
              <DockSplit
                storageKey="tabula.dockHeight"
                open={dockOpen}
                dock={
                  dockMounted && (
                    <TerminalPanel
                      ws={ws}
                      readOnly={readOnly}
                      onShow={() => setDockOpen(true)}
                      openFile={(path, line) => {
                        void open(path).then(() => line && setReveal({ path, line, column: 1, length: 0, nonce: Date.now() }));
                      }}
                    />
                  )
                }
                top={
              <SplitPane
                storageKey="tabula.previewWidth"
                fixed="right"
                initial={380}
                min={240}
                max={1400}
                label="Resize preview"
                className="preview-slot"
                collapsed={!previewOpen}
                right={previewOpen ? <PreviewPane ws={ws} controller={previewController} onClose={() => setPreviewOpen(false)} /> : null}
                left={
              mergePath ? (
                <MergeEditor ws={ws} path={mergePath} readOnly={readOnly} onClose={() => setMergePath(undefined)} onOpenInEditor={(p) => void open(p)} onError={report} />
              ) : (
              <EditorArea
                store={ws.docs}
                readOnly={readOnly}
                reveal={reveal}
                marks={marks}
                positions={positions}
                diff={diff}
                onCloseDiff={() => setDiff(undefined)}
                onShowDiff={(p) => void showDiff(p)}
                onSave={(p) => ws.docs.save(p).then(clearError, report)}
                onError={(m) => setToast({ message: m, error: true })}
              />
              )
                }
              />
                }
              />
            }
          />
        }
        right={agentOpen ? <AgentPanel
            ws={ws}
            preview={previewController}
            readOnly={readOnly}
            openFile={(p) => void open(p)}
            openEditDiff={(p, d) => void showEditDiff(p, d)}
            openTextDiff={(path, original, modified, title) => setDiff({ path, original, modified, title })}
            openAt={(p, line) => void open(p).then(() => setReveal({ path: p, line, column: 1, length: 0, nonce: Date.now() }))}
            onReview={setReview}
          /> : null}
      />
      <footer className="statusbar">
        <span>{ws.branch ? `⎇ ${ws.branch}` : ws.loaded.git ? "no git branch" : "reading git…"}</span>
        <SyncStatus fs={ws.wsfs.fs} dir={ws.wsfs.dir} branch={ws.branch} changed={ws.decorations} />
        <span>{ws.loaded.tree ? `${files.length} files` : "loading files…"}</span>
        <ProblemsCount onOpen={() => setSidebar("problems")} />
        <button type="button" className="link statusbar-link" aria-pressed={previewOpen} onClick={() => setPreviewOpen((o) => !o)} title="Toggle Web Preview">
          Preview
        </button>
        <span className="spacer" />
        <CursorStatus />
        <span>{readOnly ? "read-only tab" : "editing"}</span>
      </footer>
      {quickOpen && (
        <QuickOpen
          files={files}
          recent={recentFiles}
          onClose={() => setQuickOpen(false)}
          onOpen={(p, line, column) => {
            setQuickOpen(false);
            openAt(p, line, column);
          }}
        />
      )}
      <CommandPalette registry={commands} onError={report} />
    </div>
    </CommandsContext.Provider>
  );
}
