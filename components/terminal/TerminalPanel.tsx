"use client";
import { browserGitTransport } from "@/components/scm/git-transport";
import dynamic from "next/dynamic";
import { useEffect, useMemo, useRef, useState } from "react";
import { CommandHistory, createShell, type Shell } from "@/lib/shell";
import { currentBranch } from "@/lib/git";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import type { TerminalHost } from "./TerminalView";
import { browserPythonRuntime } from "@/components/services/python-runtime";
import { useCommands } from "@/components/palette/CommandsContext";
import { browserNodeRuntime } from "@/components/services/node-runtime";
import { readViewState, updateViewState } from "@/lib/workbench/view-state";
import { PackageSettingsStore } from "@/lib/packages/settings";

// xterm is browser-only and only needed once a terminal is shown.
const TerminalView = dynamic(() => import("./TerminalView"), { ssr: false, loading: () => <div className="terminal-host muted">Starting terminal…</div> });

const historyKey = (id: string) => `tabula.history.${id}`;

function loadHistory(id: string): CommandHistory {
  try {
    const saved = JSON.parse(localStorage.getItem(historyKey(id)) ?? "null");
    if (saved && Array.isArray(saved.entries)) return new CommandHistory(saved.max ?? 1000, saved.entries);
  } catch {
    // a damaged history is not worth an error: start afresh
  }
  return new CommandHistory(1000);
}

/**
 * The dock's terminals. All tabs share one shell over the workspace, one history per workspace
 * (persisted), and each keeps its own cwd — remembered, with how many tabs there are, for the
 * next visit. A read-only tab (another tab is the writer) gets the shell's read-only view.
 */
export function TerminalPanel(props: {
  ws: WorkspaceState;
  readOnly: boolean;
  openFile: (path: string, line?: number) => void;
  /** Brings the dock into view (a terminal opened from the command palette while it is hidden). */
  onShow?: () => void;
}) {
  const { ws } = props;
  const [shell, setShell] = useState<Shell>();
  const [error, setError] = useState<string>();
  const [tabs, setTabs] = useState<number[]>([1]);
  const [active, setActive] = useState(1);
  const nextId = useRef(2);
  const history = useMemo(() => loadHistory(ws.meta.id), [ws.meta.id]);
  // Each terminal's directory, relative to the workspace; remembered with the tabs for the next visit.
  const cwds = useRef(new Map<number, string>());
  const [restored, setRestored] = useState(false);

  // The terminals of the last visit come back, each in its directory if that still exists.
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      const saved = readViewState(ws.meta.id).terminals;
      if (saved) {
        const ids: number[] = [];
        for (const cwd of saved.cwds) {
          const id = ids.length + 1;
          ids.push(id);
          const stat = cwd ? await ws.wsfs.stat(cwd).catch(() => undefined) : undefined;
          cwds.current.set(id, stat?.type === "dir" ? cwd : "");
        }
        if (cancelled) return;
        nextId.current = ids.length + 1;
        setTabs(ids);
        setActive(ids[saved.active] ?? 1);
      }
      if (!cancelled) setRestored(true);
    })();
    return () => {
      cancelled = true;
    };
  }, [ws.meta.id, ws.wsfs]);

  const remember = () =>
    updateViewState(ws.meta.id, (s) => {
      s.terminals = { open: s.terminals?.open ?? true, cwds: tabs.map((id) => cwds.current.get(id) ?? ""), active: Math.max(0, tabs.indexOf(active)) };
    });
  const rememberRef = useRef(remember);
  rememberRef.current = remember;
  useEffect(() => {
    if (restored) rememberRef.current();
  }, [restored, tabs, active]);

  useEffect(() => {
    let cancelled = false;
    createShell({
      fs: ws.wsfs.fs,
      dir: ws.wsfs.dir,
      wsfs: ws.wsfs,
      journal: ws.wsfs.journal,
      origin: "shell",
      gitTransport: () => browserGitTransport(),
      python: browserPythonRuntime(),
      node: browserNodeRuntime(),
      packages: () => new PackageSettingsStore(localStorage).access(),
    })
      .then((s) => !cancelled && setShell(s))
      .catch((e) => setError(`The shell could not start: ${(e as Error).message}`));
    return () => {
      cancelled = true;
    };
  }, [ws.wsfs]);

  const effectiveShell = useMemo(() => (shell && props.readOnly ? shell.readOnlyView() : shell), [shell, props.readOnly]);

  const host = useMemo<TerminalHost | undefined>(
    () =>
      effectiveShell && {
        shell: effectiveShell,
        history,
        afterCommand: () => {
          localStorage.setItem(historyKey(ws.meta.id), JSON.stringify(history.toJSON()));
          // git commit/stage/branch change no working file (so no journal event) but do change the tree's colours.
          void ws.refresh();
        },
        branch: () => currentBranch({ fs: ws.wsfs.fs, dir: ws.wsfs.dir }),
        openFile: props.openFile,
        fileExists: async (p) => (await ws.wsfs.stat(p))?.type === "file",
      },
    [effectiveShell, history, ws, props.openFile],
  );

  const newTerminal = () => {
    const id = nextId.current++;
    setTabs((t) => [...t, id]);
    setActive(id);
  };
  useCommands([
    {
      id: "terminal.new",
      category: "Terminal",
      title: "New Terminal",
      run: () => {
        props.onShow?.();
        newTerminal();
      },
    },
  ]);

  return (
    <div className="terminal-panel">
      <div className="dock-tabs" role="tablist" aria-label="Terminals">
        {tabs.map((id, i) => (
          <div key={id} role="tab" aria-selected={id === active} className={`dock-tab${id === active ? " active" : ""}`} onClick={() => setActive(id)}>
            Terminal {i + 1}
            {tabs.length > 1 && (
              <button
                className="close"
                aria-label={`Close terminal ${i + 1}`}
                onClick={(e) => {
                  e.stopPropagation();
                  const rest = tabs.filter((t) => t !== id);
                  setTabs(rest);
                  if (active === id) setActive(rest[rest.length - 1]);
                }}
              >
                ×
              </button>
            )}
          </div>
        ))}
        <button className="dock-add" aria-label="New terminal" title="New terminal" onClick={newTerminal}>
          +
        </button>
        {props.readOnly && <span className="muted" style={{ marginLeft: 8, fontSize: 12 }}>read-only shell</span>}
      </div>
      {error && <div className="banner error" role="alert">{error}</div>}
      <div className="terminal-stack">
        {host && restored
          ? tabs.map((id, i) => (
              <TerminalView
                key={id}
                host={host}
                active={id === active}
                label={`Terminal ${i + 1}`}
                startCwd={cwds.current.get(id)}
                onCwd={(cwd) => {
                  cwds.current.set(id, cwd);
                  rememberRef.current();
                }}
              />
            ))
          : !error && <div className="muted" style={{ padding: 8 }}>Starting shell…</div>}
      </div>
    </div>
  );
}
