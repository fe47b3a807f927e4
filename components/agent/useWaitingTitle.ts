"use client";
import { useEffect } from "react";

const PREFIX = "(Waiting for you) ";

/**
 * While the agent waits for an approval or an answer, the tab's title says so, so a tab in the
 * background shows it in the tab strip (the notification alone is easy to miss or turned off).
 */
export function useWaitingTitle(waiting: boolean): void {
  useEffect(() => {
    if (!waiting) return;
    if (!document.title.startsWith(PREFIX)) document.title = PREFIX + document.title;
    return () => {
      if (document.title.startsWith(PREFIX)) document.title = document.title.slice(PREFIX.length);
    };
  }, [waiting]);
}
