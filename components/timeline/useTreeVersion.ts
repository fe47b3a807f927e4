"use client";
import { useCallback, useEffect, useState } from "react";
import type { WorkspaceFs } from "@/lib/fs/workspace-fs";

/**
 * A number that moves on whenever the working tree may have changed (editor, terminal, agent,
 * restore), at most once per `quietMs` of quiet: views that compare with the files now recompute on it.
 */
export function useTreeVersion(wsfs: WorkspaceFs, quietMs = 200): [number, () => void] {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = wsfs.journal.subscribe(() => {
      clearTimeout(timer);
      timer = setTimeout(() => setVersion((v) => v + 1), quietMs);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [wsfs, quietMs]);
  const bump = useCallback(() => setVersion((v) => v + 1), []);
  return [version, bump];
}
