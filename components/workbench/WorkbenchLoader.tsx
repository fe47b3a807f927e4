"use client";
import dynamic from "next/dynamic";

// The workbench lives on IndexedDB, Web Locks and Monaco: browser only.
const Workbench = dynamic(() => import("./Workbench"), { ssr: false, loading: () => <main className="start muted">Opening workspace…</main> });

export default function WorkbenchLoader({ id }: { id: string }) {
  return <Workbench id={id} />;
}
