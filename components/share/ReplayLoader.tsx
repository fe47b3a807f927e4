"use client";
import dynamic from "next/dynamic";

// IndexedDB, Monaco and the checkpoint engine: browser only.
const ReplayView = dynamic(() => import("./ReplayView"), { ssr: false, loading: () => <main className="start muted">Opening the shared session…</main> });

export default function ReplayLoader({ id }: { id?: string }) {
  return <ReplayView id={id} />;
}
