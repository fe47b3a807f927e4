"use client";
import { useEffect } from "react";
import { setTabWaiting } from "@/components/workbench/tab-title";

/**
 * While the agent waits for an approval or an answer, the tab's title says so, so a tab in the
 * background shows it in the tab strip (the notification alone is easy to miss or turned off).
 */
export function useWaitingTitle(waiting: boolean): void {
  useEffect(() => {
    if (!waiting) return;
    setTabWaiting(true);
    return () => setTabWaiting(false);
  }, [waiting]);
}
