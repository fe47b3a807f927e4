"use client";
import dynamic from "next/dynamic";

// The workbench lives on IndexedDB, Web Locks and Monaco: browser only.
const Workbench = dynamic(() => import("./Workbench"), { ssr: false, loading: () => <main className="start muted">Opening workspace…</main> });

/**
 * Offline, the service worker answers every /w/<id> with one cached workbench page, rendered for
 * another id: the workspace to open is the one in the address.
 */
function idFromAddress(): string | undefined {
  if (typeof location === "undefined") return undefined;
  const m = /^\/w\/([^/]+)\/?$/.exec(location.pathname);
  return m ? decodeURIComponent(m[1]!) : undefined;
}

export default function WorkbenchLoader({ id }: { id: string }) {
  return <Workbench id={idFromAddress() ?? id} />;
}
