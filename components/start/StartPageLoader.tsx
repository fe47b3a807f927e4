"use client";
import dynamic from "next/dynamic";

// The start page reads IndexedDB: render it in the browser only.
const StartPage = dynamic(() => import("./StartPage"), { ssr: false, loading: () => <main className="start muted">Loading…</main> });

export default function StartPageLoader() {
  return <StartPage />;
}
