"use client";
/**
 * The web preview: the workspace served as a site, on the preview origin (lib/preview/), in a
 * frame beside the editor. It reloads a moment after any change to the workspace (editor, agent,
 * terminal, git), and lists what the page printed, threw or failed to load in its console.
 */
import { useEffect, useMemo, useRef, useState } from "react";
import { PreviewLink } from "@/lib/preview/link";
import { browserBundler } from "@/components/services/preview-bundler";
import type { PreviewController, PreviewSnapshot } from "@/lib/preview/controller";
import { PREVIEW_HOST_PATH, type PreviewConsoleEntry } from "@/lib/preview/protocol";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";

const RELOAD_AFTER_MS = 120;
const MAX_CONSOLE = 500;

function randomSession(): string {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => (b % 36).toString(36)).join("");
}

type Status = { kind: "starting" } | { kind: "ready" } | { kind: "unavailable"; message: string };

export function PreviewPane({ ws, controller, onClose }: { ws: WorkspaceState; controller: PreviewController; onClose: () => void }) {
  const [origin, setOrigin] = useState<string | null | undefined>(undefined);
  const [status, setStatus] = useState<Status>({ kind: "starting" });
  const [address, setAddress] = useState("/");
  const [shown, setShown] = useState<string>();
  const [entries, setEntries] = useState<PreviewConsoleEntry[]>([]);
  const [consoleOpen, setConsoleOpen] = useState(true);
  const session = useMemo(randomSession, []);
  const frame = useRef<HTMLIFrameElement>(null);
  const linkRef = useRef<PreviewLink | null>(null);

  useEffect(() => {
    let live = true;
    // Offline, the server cannot be asked: the origin it gave last time (its service worker keeps the host page).
    const KEY = "tabula.preview-origin";
    fetch("/api/preview")
      .then((r) => r.json() as Promise<{ origin: string | null }>)
      .then((r) => {
        if (r.origin) localStorage.setItem(KEY, r.origin);
        else localStorage.removeItem(KEY);
        if (live) setOrigin(r.origin);
      })
      .catch(() => live && setOrigin(localStorage.getItem(KEY)));
    return () => {
      live = false;
    };
  }, []);

  useEffect(() => {
    if (origin === null) {
      // No preview origin: the pane says so, and the agent's preview tool is refused with the reason.
      setStatus({ kind: "unavailable", message: "This server does not serve previews: start Tabula with npm start (it serves the preview on a second port), or set TABULA_PREVIEW_ORIGIN." });
      controller.attach({ capture: async () => Promise.reject(new Error("this server does not serve previews")) });
      return () => controller.attach(null);
    }
    if (!origin) return;
    const source = { readFile: (p: string) => (controller.source ?? ws.wsfs).readFile(p), stat: (p: string) => (controller.source ?? ws.wsfs).stat(p) };
    const link = new PreviewLink(source, {
      onReady: () => {
        setStatus({ kind: "ready" });
        link.navigate("/");
      },
      onFailed: (message) => setStatus({ kind: "unavailable", message: `The preview could not start: ${message}` }),
      onConsole: (entry) => setEntries((list) => [...list.slice(-(MAX_CONSOLE - 1)), entry]),
      onLoaded: (path) => setShown(`/${path}`),
    }, { bundler: browserBundler });
    const capture = (path: string | undefined, signal?: AbortSignal): Promise<PreviewSnapshot> => {
      setEntries([]);
      if (path !== undefined) setAddress(path.startsWith("/") ? path : `/${path}`);
      return link.capture(path, signal);
    };
    controller.attach({ capture });
    linkRef.current = link;
    const onMessage = (e: MessageEvent) => link.connect(e, { window: frame.current?.contentWindow ?? null, origin, session });
    window.addEventListener("message", onMessage);
    let timer: ReturnType<typeof setTimeout> | undefined;
    // As a browser's devtools do on a reload: the console starts again with the page.
    const off = ws.wsfs.journal.subscribe((event) => {
      // git's own files (objects, refs, the index) are not part of the site.
      if (event.path === ".git" || event.path.startsWith(".git/")) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        setEntries([]);
        link.reload();
      }, RELOAD_AFTER_MS);
    });
    return () => {
      clearTimeout(timer);
      off();
      window.removeEventListener("message", onMessage);
      controller.attach(null);
      link.close();
      linkRef.current = null;
    };
  }, [origin, session, ws.wsfs, controller]);

  const go = (path: string) => {
    setEntries([]);
    linkRef.current?.navigate(path.startsWith("/") ? path : `/${path}`);
  };
  const errors = entries.filter((e) => e.level === "error").length;

  return (
    <section className="preview-pane" aria-label="Web preview">
      <div className="editor-toolbar preview-toolbar">
        <form
          className="preview-address"
          onSubmit={(e) => {
            e.preventDefault();
            go(address);
          }}
        >
          <input aria-label="Preview address" value={address} onChange={(e) => setAddress(e.target.value)} spellCheck={false} />
        </form>
        <button
          type="button"
          onClick={() => {
            setEntries([]);
            linkRef.current?.reload();
          }}
          disabled={status.kind !== "ready"}
          title="Reload the preview"
        >
          Reload
        </button>
        {origin && status.kind === "ready" && (
          // The preview's own service worker serves the tab too, from this pane's host, while the pane is open.
          <a className="button-link" href={`${origin}/preview/${session}${shown ?? "/"}`} target="_blank" rel="noopener noreferrer" title="Open the previewed page in a tab of its own">
            Open in new tab
          </a>
        )}
        <button type="button" aria-pressed={consoleOpen} onClick={() => setConsoleOpen((o) => !o)} title="The page's console, errors and failed requests">
          Console{entries.length ? ` (${entries.length})` : ""}
          {errors ? <span className="preview-errors"> · {errors} error{errors === 1 ? "" : "s"}</span> : null}
        </button>
        <button type="button" onClick={onClose} aria-label="Close preview" title="Close preview">
          ×
        </button>
      </div>
      {status.kind === "unavailable" ? (
        <p className="preview-message" role="status">
          {status.message}
        </p>
      ) : origin ? (
        // Sandboxed without allow-top-navigation: a previewed page cannot navigate the IDE away.
        <iframe
          ref={frame}
          className="preview-frame"
          title="Preview"
          data-shown={shown ?? ""}
          sandbox="allow-scripts allow-same-origin allow-forms allow-modals allow-popups allow-downloads"
          src={`${origin}${PREVIEW_HOST_PATH}?session=${session}`}
        />
      ) : (
        <p className="preview-message">Starting the preview…</p>
      )}
      {consoleOpen && (
        <div className="preview-console" role="log" aria-label="Preview console">
          {entries.length === 0 ? (
            <div className="preview-console-empty">Nothing logged yet.</div>
          ) : (
            entries.map((e, i) => (
              <div key={i} className={`preview-console-entry ${e.level}`} data-level={e.level} data-source={e.source}>
                {e.source === "request" ? "⚠ " : ""}
                {e.text}
              </div>
            ))
          )}
          {entries.length > 0 && (
            <button type="button" className="preview-console-clear" onClick={() => setEntries([])}>
              Clear
            </button>
          )}
        </div>
      )}
    </section>
  );
}
