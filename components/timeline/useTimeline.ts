"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AgentSession } from "@/lib/agent";
import { Timeline, conversationAt, type ChildGroup, type Preview, type RestoreChoice, type RestoreOutcome, type Tick } from "@/lib/timeline";
import { lightningReadMany } from "@/lib/checkpoints/lightning-read";
import { lightningFsName } from "@/lib/fs/lightning";
import { listDirOf } from "@/lib/fs/listing";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { useTreeVersion } from "./useTreeVersion";

const loadEngine = () => import("@/lib/checkpoints");

/** The engine's view of the open workspace: same fs, journal and batched reads as the agent's. */
export function checkpointWorkspace(ws: WorkspaceState) {
  return { fs: ws.wsfs.fs, dir: ws.wsfs.dir, journal: ws.wsfs.journal, readMany: lightningReadMany(indexedDB, lightningFsName(ws.meta.id)), listDir: listDirOf(ws.wsfs.fs) };
}

/**
 * The session's timeline: ticks (reloaded as the session moves), the selected tick and its
 * preview (recomputed when the working tree changes), restore with undo, save points.
 * `selected` is a tick index, or null for "now" (no preview). `childGroups`: the session's
 * teams and sub-agents, each shown as one tick.
 */
export function useTimeline(ws: WorkspaceState, session: AgentSession | undefined, version: number, childGroups?: (session: AgentSession) => Promise<ChildGroup[]>) {
  const timeline = useMemo(() => new Timeline({ ws: checkpointWorkspace(ws), engine: loadEngine, version: () => ws.wsfs.journal.seq }), [ws.wsfs, ws.meta.id]); // eslint-disable-line react-hooks/exhaustive-deps
  const [ticks, setTicks] = useState<Tick[]>([]);
  const [selected, setSelected] = useState<number | null>(null);
  const [preview, setPreview] = useState<Preview>();
  const [previewError, setPreviewError] = useState<string>();
  const [lastRestore, setLastRestore] = useState<RestoreOutcome>();
  const [busy, setBusy] = useState(false);
  const [reloadNonce, setReloadNonce] = useState(0);
  // The working tree changed (editor, terminal, agent, restore): a shown preview is recomputed.
  const [treeVersion] = useTreeVersion(ws.wsfs);

  // Reload when the session's shape changes: a run starts or ends, a checkpoint lands, the
  // conversation is rewound while idle. Not on each message of a running turn.
  const shapeKey = session ? `${session.id}:${session.state.running}:${session.state.runs.length}:${session.state.checkpoints.length}:${session.state.running ? "" : session.state.messages.length}` : "";
  useEffect(() => {
    if (!session) return;
    let cancelled = false;
    (childGroups ? childGroups(session).catch(() => []) : Promise.resolve([]))
      .then((groups) => timeline.ticks(session, groups))
      .then((t) => {
        if (cancelled) return;
        setTicks(t);
        setSelected((s) => (s !== null && s >= t.length ? null : s));
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [timeline, shapeKey, reloadNonce]); // eslint-disable-line react-hooks/exhaustive-deps

  // A tick asked for by ref (from the workspace history) is selected once the ticks hold it.
  const [wantedRef, setWantedRef] = useState<string>();
  useEffect(() => setSelected(null), [session?.id]);
  useEffect(() => {
    if (!wantedRef) return;
    const i = ticks.findIndex((t) => t.ref === wantedRef);
    if (i !== -1) {
      setSelected(i);
      setWantedRef(undefined);
    }
  }, [ticks, wantedRef]);

  const tick = selected === null ? undefined : ticks[selected];
  const latest = useRef<string | undefined>(undefined);
  useEffect(() => {
    latest.current = tick?.ref;
    setPreviewError(undefined);
    if (!tick) return setPreview(undefined);
    timeline
      .preview(tick.ref)
      .then((p) => {
        if (latest.current === tick.ref) setPreview(p);
      })
      .catch((e: Error) => {
        if (latest.current === tick.ref) setPreviewError(e.message);
      });
  }, [timeline, tick?.ref, treeVersion]); // eslint-disable-line react-hooks/exhaustive-deps

  /** Messages from this index on are after the selected point (the transcript dims them). */
  const dimFrom = useMemo(() => (tick && session ? conversationAt(tick, session.state.messages).keep : undefined), [tick, session, version]); // eslint-disable-line react-hooks/exhaustive-deps

  const reload = useCallback(() => setReloadNonce((n) => n + 1), []);

  /** A restore of some kind: it becomes the last one (Undo restore), the view goes back to now. */
  const applyRestore = useCallback(
    async (work: (s: AgentSession) => Promise<RestoreOutcome>) => {
      if (!session) return;
      setBusy(true);
      try {
        const out = await work(session);
        setLastRestore(out);
        setSelected(null);
        reload();
        await ws.refresh();
        return out;
      } finally {
        setBusy(false);
      }
    },
    [session, ws, reload],
  );
  const restore = useCallback((t: Tick, choice: RestoreChoice) => applyRestore((s) => timeline.restore(s, t, choice)), [applyRestore, timeline]);
  const undoStep = useCallback((t: Tick) => applyRestore((s) => timeline.undoStep(s, t)), [applyRestore, timeline]);

  const undo = useCallback(async () => {
    if (!session || !lastRestore) return;
    setBusy(true);
    try {
      await timeline.undo(session, lastRestore);
      setLastRestore(undefined);
      reload();
      await ws.refresh();
    } finally {
      setBusy(false);
    }
  }, [session, lastRestore, timeline, ws, reload]);

  const savePoint = useCallback(
    async (name?: string) => {
      if (!session) return;
      await timeline.savePoint(session.id, name);
      reload();
    },
    [session, timeline, reload],
  );

  const rename = useCallback(
    async (ref: string, name: string) => {
      await timeline.rename(ref, name);
      reload();
    },
    [timeline, reload],
  );

  const pin = useCallback(
    async (ref: string, pinned: boolean) => {
      await timeline.pin(ref, pinned);
      reload();
    },
    [timeline, reload],
  );

  const selectRef = useCallback((ref: string) => {
    setWantedRef(ref);
    setReloadNonce((n) => n + 1);
  }, []);

  return { timeline, ticks, selected, select: setSelected, selectRef, tick, preview, previewError, dimFrom, restore, undoStep, undo, lastRestore, dismissRestore: () => setLastRestore(undefined), savePoint, rename, pin, busy, reload };
}

export type TimelineController = ReturnType<typeof useTimeline>;
