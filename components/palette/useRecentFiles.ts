"use client";
import { useEffect, useState } from "react";
import type { DocumentStore } from "@/lib/editor/documents";
import { RecentList } from "@/lib/workbench/recent";
import { readStorage, writeStorage } from "./CommandsContext";

/** The files this workspace's tabs showed, most recent first, kept across reloads (for quick open). */
export function useRecentFiles(workspaceId: string | undefined, docs: DocumentStore | undefined): readonly string[] {
  const [recent, setRecent] = useState<readonly string[]>([]);
  useEffect(() => {
    if (!workspaceId || !docs) return;
    const key = `tabula.recentFiles.${workspaceId}`;
    const list = RecentList.parse(readStorage(key), 50);
    setRecent(list.list());
    let last: string | undefined;
    const onChange = () => {
      const active = docs.active;
      if (!active || active === last) return;
      last = active;
      list.touch(active);
      writeStorage(key, list.serialize());
      setRecent(list.list());
    };
    onChange();
    return docs.subscribe(onChange);
  }, [workspaceId, docs]);
  return recent;
}
