"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createCheckpointService } from "@/lib/agent/workspace-deps";
import { lightningReadMany } from "@/lib/checkpoints";
import { lightningFsName } from "@/lib/fs/lightning";
import { shellGitRunner } from "@/lib/scm/git-runner";
import { SourceControl, type ScmOutput, type ScmStatus } from "@/lib/scm/source-control";
import { DEFAULT_MOUNT_POINT } from "@/lib/shell/paths";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { browserGitTransport } from "./git-transport";

export type ScmAction = "refresh" | "stage" | "unstage" | "discard" | "commit" | "fetch" | "pull" | "push" | "sync";

const OUTPUT_KEEP = 50;

/**
 * The Source Control view's state: git's status as the terminal's git reports it, refreshed
 * when the workspace changes (the tree's decorations are recomputed on every file event) and
 * after each action; one action at a time.
 */
const instances = new WeakMap<object, { readOnly: boolean; scm: SourceControl }>();

/** One SourceControl per open workspace and role, shared by the view and the merge editor (one Output log). */
export function sourceControlFor(ws: WorkspaceState, readOnly: boolean): SourceControl {
  const known = instances.get(ws.wsfs);
  if (known && known.readOnly === readOnly) return known.scm;
  const scm = new SourceControl(
    shellGitRunner({
      fs: ws.wsfs.fs,
      wsfs: readOnly ? ws.wsfs.readOnlyView() : ws.wsfs,
      mountPoint: DEFAULT_MOUNT_POINT,
      readOnly,
      transport: () => browserGitTransport(),
    }),
    createCheckpointService(ws.wsfs, { readMany: lightningReadMany(indexedDB, lightningFsName(ws.meta.id)) }),
  );
  instances.set(ws.wsfs, { readOnly, scm });
  return scm;
}

export function useSourceControl(ws: WorkspaceState, readOnly: boolean) {
  const scm = useMemo(() => sourceControlFor(ws, readOnly), [ws, readOnly]);
  const [status, setStatus] = useState<ScmStatus>();
  const [statusError, setStatusError] = useState<string>();
  const [busy, setBusy] = useState<ScmAction>();
  const [outputs, setOutputs] = useState<ScmOutput[]>([]);
  const busyRef = useRef(false);

  useEffect(() => scm.onOutput((o) => setOutputs((list) => [...list.slice(-(OUTPUT_KEEP - 1)), o])), [scm]);

  const reload = useCallback(async () => {
    try {
      setStatus(await scm.status());
      setStatusError(undefined);
    } catch (e) {
      setStatusError((e as Error).message);
    }
  }, [scm]);

  // Files changed (the editor, the agent, the terminal): the decorations map is replaced.
  useEffect(() => {
    if (busyRef.current) return;
    const t = setTimeout(() => void reload(), 150);
    return () => clearTimeout(t);
  }, [reload, ws.decorations, ws.branch]);

  /** Run one action; refresh status and the workbench after it, whether it worked or not. */
  const act = useCallback(
    async <T>(name: ScmAction, fn: (s: SourceControl) => Promise<T>): Promise<T> => {
      if (busyRef.current) throw new Error("Another source control action is still running.");
      busyRef.current = true;
      setBusy(name);
      try {
        return await fn(scm);
      } finally {
        // Busy until the status is read back: an action clicked in between would act on the old lists.
        await reload();
        busyRef.current = false;
        setBusy(undefined);
        void ws.refresh();
      }
    },
    [scm, reload, ws],
  );

  return { scm, status, statusError, busy, outputs, act, reload };
}
