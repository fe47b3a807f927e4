"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import type { AgentSession } from "@/lib/agent";
import type { RunChanges, Timeline } from "@/lib/timeline";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { useTreeVersion } from "./useTreeVersion";

export type RevertDone = { txid: string; what: string; files: number; all: boolean };

/**
 * The Changes view's state: which turn is open and what it changed (recomputed when the working
 * tree changes, so each file's "now" stays true), revert one file or all with an undo, Keep all;
 * and how many files the session's last finished turn changed, for the line under its last message.
 */
export function useRunChanges(ws: WorkspaceState, session: AgentSession | undefined, timeline: Timeline) {
  const [openRun, setOpenRun] = useState<number>();
  const [changes, setChanges] = useState<RunChanges>();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [lastRevert, setLastRevert] = useState<RevertDone>();
  const [treeVersion, bumpTreeVersion] = useTreeVersion(ws.wsfs);
  const [lastRun, setLastRun] = useState<{ run: number; files: number }>();

  // Another session: its turns are other turns.
  useEffect(() => {
    setOpenRun(undefined);
    setChanges(undefined);
    setLastRevert(undefined);
  }, [session?.id]);

  // The turn shown, recomputed as the files move; an answer for an older request is dropped.
  const asked = useRef(0);
  useEffect(() => {
    if (!session || openRun === undefined) return;
    const n = ++asked.current;
    timeline
      .runChanges(session, openRun)
      .then((c) => {
        if (n !== asked.current) return;
        setChanges(c);
        setError(undefined);
      })
      .catch((e: Error) => {
        if (n === asked.current) setError(e.message);
      });
  }, [session, timeline, openRun, treeVersion]);

  // The last finished turn's count: its checkpoints are settled once the run is over.
  const last = session && !session.state.running ? session.state.runs.at(-1) : undefined;
  const lastKey = session && last ? `${session.id}:${last.run}:${session.state.checkpoints.length}` : "";
  useEffect(() => {
    if (!session || !last) return setLastRun(undefined);
    let cancelled = false;
    const run = last.run;
    void session.history
      .checkpointsSettled()
      .then(() => timeline.runChangeCount(session, run))
      .then((files) => !cancelled && setLastRun(files ? { run, files } : undefined))
      .catch(() => !cancelled && setLastRun(undefined));
    return () => {
      cancelled = true;
    };
  }, [lastKey, timeline]); // eslint-disable-line react-hooks/exhaustive-deps

  const open = useCallback((run: number) => {
    setOpenRun(run);
    setChanges((c) => (c?.run === run ? c : undefined));
    setError(undefined);
    setLastRevert(undefined);
  }, []);
  const close = useCallback(() => {
    setOpenRun(undefined);
    setChanges(undefined);
    setLastRevert(undefined);
  }, []);

  // A forked session carries its turns' checkpoints but not their run records: nothing to mark there.
  const mark = useCallback(
    (run: number, outcome: "kept" | "reverted" | undefined) => {
      if (session?.state.runs.some((r) => r.run === run)) session.history.markReviewed(run, outcome);
    },
    [session],
  );

  const act = useCallback(
    async (fn: () => Promise<void>) => {
      setBusy(true);
      setError(undefined);
      try {
        await fn();
        await ws.refresh();
        bumpTreeVersion();
      } catch (e) {
        setError((e as Error).message);
      } finally {
        setBusy(false);
      }
    },
    [ws, bumpTreeVersion],
  );

  const revert = useCallback(
    (paths?: string[]) =>
      act(async () => {
        if (!session || !changes) return;
        const r = await timeline.revertRunChanges(session, changes, paths);
        const all = !paths;
        if (all) mark(changes.run, "reverted");
        setLastRevert({ txid: r.txid, what: all ? `turn ${changes.run}'s changes` : paths.join(", "), files: r.changed.length, all });
      }),
    [act, session, changes, timeline, mark],
  );

  const undo = useCallback(
    () =>
      act(async () => {
        if (!session || !lastRevert || !changes) return;
        await timeline.undoFiles(session, lastRevert.txid);
        if (lastRevert.all) mark(changes.run, undefined);
        setLastRevert(undefined);
      }),
    [act, session, lastRevert, changes, timeline, mark],
  );

  const keepAll = useCallback(() => {
    if (!session || openRun === undefined) return;
    mark(openRun, "kept");
    close();
  }, [session, openRun, close, mark]);

  return { openRun, changes, error, busy, lastRevert, lastRun, open, close, revert, undo, keepAll };
}

export type RunChangesController = ReturnType<typeof useRunChanges>;
