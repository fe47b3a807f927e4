"use client";
import { useEffect, useState } from "react";
import { branchTracking, type Tracking } from "@/lib/git/remote-ahead-behind";
import type { IsoFs } from "@/lib/fs/types";

const POLL_MS = 3000;

/**
 * The status bar's "origin/main ↑1 ↓0": how the branch stands against its upstream. Pushes, fetches
 * and commits change refs only (no file event), so it also looks again every few seconds while the
 * page is visible.
 */
export function SyncStatus(props: { fs: IsoFs; dir: string; branch: string | undefined; changed: unknown }) {
  const [tracking, setTracking] = useState<Tracking | null>(null);
  const { fs, dir, branch, changed } = props;
  useEffect(() => {
    let cancelled = false;
    const look = () => {
      if (!branch || document.visibilityState === "hidden") return;
      branchTracking({ fs, dir }, branch)
        .then((t) => !cancelled && setTracking(t))
        .catch(() => !cancelled && setTracking(null));
    };
    look();
    const timer = setInterval(look, POLL_MS);
    return () => {
      cancelled = true;
      clearInterval(timer);
    };
  }, [fs, dir, branch, changed]);
  if (!branch || !tracking) return null;
  const label = tracking.gone ? `${tracking.upstream} (gone)` : `${tracking.upstream} ↑${tracking.ahead} ↓${tracking.behind}`;
  const title = tracking.gone
    ? `The upstream ${tracking.upstream} is gone`
    : `${tracking.ahead} commit(s) to push, ${tracking.behind} to pull (as of the last fetch)`;
  return (
    <span data-testid="sync-status" title={title}>
      {label}
    </span>
  );
}
