"use client";
import { useEffect, useMemo, useState } from "react";
import dynamic from "next/dynamic";
import git from "isomorphic-git";
import type { SessionData } from "@/lib/agent/session";
import type { AgentMessage } from "@/lib/agent";
import { buildTimeline, conversationAt, type Tick } from "@/lib/timeline";
import { fetchShare } from "@/lib/share/links";
import type { SharePackage } from "@/lib/share/package";
import { openLightningFs, deleteWorkspaceStorage } from "@/lib/fs/lightning";
import { randomId } from "@/lib/agent/ids";
import { workspaceManager } from "@/components/services/browser-env";
import { SessionStore } from "@/lib/sessions";
import { ProviderSettingsStore } from "@/lib/providers";
import type { SessionImport } from "@/lib/share/session-bundle";
import { TimelineBar } from "@/components/timeline/TimelineBar";
import { ReplayTranscript } from "./ReplayTranscript";

const DiffEditor = dynamic(() => import("@/components/editor/DiffEditor"), { ssr: false });
const ReadOnlyViewer = dynamic(() => import("@/components/editor/ReadOnlyViewer"), { ssr: false });

type Engine = typeof import("@/lib/checkpoints");
type Loaded = { pkg: SharePackage; engine: Engine; ws: { fs: ReturnType<typeof openLightningFs>; dir: string }; session: SessionData; ticks: Tick[] };
type View = { kind: "file"; path: string; text: string } | { kind: "diff"; path: string; before: string; after: string; title: string };

const dec = new TextDecoder();

/**
 * `/s/<id>` and `/s#<package>`: a shared session, read-only. Its checkpoints are unpacked into a
 * throwaway in-browser repository (removed when the page goes), scrubbed with the timeline, and
 * browsed in Monaco; no key and no workspace needed. "Fork" makes it a workspace of one's own.
 */
export default function ReplayView(props: { id?: string }) {
  const [loaded, setLoaded] = useState<Loaded>();
  const [error, setError] = useState<string>();
  const [selected, setSelected] = useState<number | null>(null);
  const [files, setFiles] = useState<string[]>([]);
  const [changes, setChanges] = useState<{ path: string; change: string }[]>([]);
  const [view, setView] = useState<View>();
  const [forking, setForking] = useState(false);

  useEffect(() => {
    const name = `replay-${randomId(10)}`;
    let cancelled = false;
    (async () => {
      const input = props.id ? { bytes: await fetchShare(location.origin, props.id) } : { fragment: location.hash.slice(1) };
      if ("fragment" in input && !input.fragment) throw new Error("This link holds no session.");
      const [{ openSharedPackage }, engine] = await Promise.all([import("@/lib/share/open-link"), import("@/lib/checkpoints")]);
      const ws = { fs: openLightningFs(name), dir: "/" };
      const { pkg, imported } = await openSharedPackage(input, engine, ws);
      const session = imported.session ?? pkg.envelope.session;
      const ticks = buildTimeline(await engine.listCheckpoints(ws, { sessionId: session.id }), session.messages);
      if (!cancelled) {
        setLoaded({ pkg, engine, ws, session, ticks });
        document.title = `${session.title || "Shared session"} — Tabula`;
      }
    })().catch((e: Error) => !cancelled && setError(e.message));
    const drop = () => void deleteWorkspaceStorage(name, indexedDB).catch(() => undefined);
    addEventListener("pagehide", drop);
    return () => {
      cancelled = true;
      removeEventListener("pagehide", drop);
      drop();
    };
  }, [props.id]);

  // "Now" in a replay is the newest checkpoint.
  const tick = loaded ? (selected === null ? loaded.ticks.at(-1) : loaded.ticks[selected]) : undefined;

  useEffect(() => {
    if (!loaded || !tick) return;
    let cancelled = false;
    (async () => {
      const list = await git.listFiles({ fs: loaded.ws.fs, dir: loaded.ws.dir, ref: tick.ref });
      const ch = tick.since ? await loaded.engine.diffCheckpoints(loaded.ws, tick.since.ref, tick.ref) : [];
      if (!cancelled) {
        setFiles(list);
        setChanges(ch);
      }
    })().catch((e: Error) => !cancelled && setError(e.message));
    return () => {
      cancelled = true;
    };
  }, [loaded, tick]);

  const dimFrom = useMemo(() => (loaded && tick && selected !== null ? conversationAt(tick, loaded.session.messages).keep : undefined), [loaded, tick, selected]);

  const read = async (ref: string, path: string) => {
    try {
      return dec.decode(await loaded!.engine.readFileAt(loaded!.ws, ref, path));
    } catch {
      return "";
    }
  };

  const fork = async () => {
    if (!loaded) return;
    setForking(true);
    try {
      let imported: SessionImport | undefined;
      const meta = await workspaceManager().create(`${loaded.session.title || "Shared session"}`.slice(0, 60), {
        kind: "bundle",
        bytes: loaded.pkg.bundleBytes,
        detail: props.id ? `shared link ${props.id}` : "shared link",
        onImported: (r) => (imported = r),
      });
      if (imported?.session) {
        const settings = new ProviderSettingsStore(localStorage);
        await new SessionStore(indexedDB, { secrets: () => settings.secrets() }).save({ ...imported.session, workspaceId: meta.id, updatedAt: Date.now() });
      }
      location.assign(`/w/${meta.id}`);
    } catch (e) {
      setError(`Fork failed, nothing was created: ${(e as Error).message}`);
      setForking(false);
    }
  };

  if (error && !loaded)
    return (
      <main className="start">
        <h1>Shared session</h1>
        <div className="banner error" role="alert" data-testid="replay-error">
          {error}
        </div>
        <p>
          <a href="/">Go to your workspaces</a>
        </p>
      </main>
    );
  if (!loaded) return <main className="start muted">Opening the shared session…</main>;

  return (
    <div className="replay">
      <header className="topbar">
        <strong data-testid="replay-title">{loaded.session.title || "Shared session"}</strong>
        <span className="muted">
          read-only replay · {loaded.ticks.length} checkpoint{loaded.ticks.length === 1 ? "" : "s"}
        </span>
        <span className="spacer" />
        <button className="primary" disabled={forking} onClick={() => void fork()}>
          {forking ? "Forking…" : "Fork into my workspaces"}
        </button>
      </header>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      <TimelineBar ticks={loaded.ticks} selected={selected} onSelect={setSelected} onSavePoint={async () => undefined} onHistory={() => undefined} historyOpen={false} viewOnly />
      <div className="replay-body">
        <aside className="replay-files">
          {tick?.since && (
            <>
              <h4>Changed at this point{tick.since.by === "you" ? " (by hand)" : tick.since.by === "agent" ? " (by the agent)" : ""}</h4>
              <ul aria-label="Changed at this point">
                {changes.map((c) => (
                  <li key={c.path}>
                    <button
                      className="link"
                      onClick={async () => {
                        const [before, after] = await Promise.all([read(tick.since!.ref, c.path), read(tick.ref, c.path)]);
                        setView({ kind: "diff", path: c.path, before, after, title: `${c.path} (previous point ↔ ${tick.title})` });
                      }}
                    >
                      {c.change === "added" ? "+ " : c.change === "deleted" ? "− " : "~ "}
                      {c.path}
                    </button>
                  </li>
                ))}
                {changes.length === 0 && <li className="muted">No file changed.</li>}
              </ul>
            </>
          )}
          <h4>Files at {tick ? tick.title : "this point"}</h4>
          <ul aria-label="Files at this point">
            {files.map((p) => (
              <li key={p}>
                <button className="link" onClick={async () => setView({ kind: "file", path: p, text: await read(tick!.ref, p) })}>
                  {p}
                </button>
              </li>
            ))}
          </ul>
        </aside>
        <section className="replay-editor" aria-label="Viewer">
          {view ? (
            <>
              <div className="muted" data-testid="viewer-title" style={{ padding: "2px 8px" }}>
                {view.kind === "diff" ? view.title : `${view.path} at ${tick?.title}`}
              </div>
              {view.kind === "diff" ? <DiffEditor path={view.path} original={view.before} modified={view.after} /> : <ReadOnlyViewer path={view.path} text={view.text} />}
            </>
          ) : (
            <p className="muted" style={{ padding: 12 }}>
              Pick a file to read it, or a change to see its diff.
            </p>
          )}
        </section>
        <aside className="replay-transcript">
          <ReplayTranscript messages={loaded.session.messages as AgentMessage[]} dimFrom={dimFrom} onOpenFile={async (p) => tick && setView({ kind: "file", path: p, text: await read(tick.ref, p) })} />
        </aside>
      </div>
    </div>
  );
}
