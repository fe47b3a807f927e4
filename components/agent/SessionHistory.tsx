"use client";
import { useState } from "react";
import type { SessionMeta } from "@/lib/sessions";
import { relativeTime } from "@/components/common/download";

/** The workspace's past sessions, searchable; open one to resume it. */
export function SessionHistory(props: { sessions: SessionMeta[]; currentId: string; onOpen: (id: string) => void; onDelete: (id: string) => void }) {
  const [query, setQuery] = useState("");
  const q = query.toLowerCase();
  const shown = props.sessions.filter((s) => !q || s.title.toLowerCase().includes(q) || (s.preview ?? "").toLowerCase().includes(q));
  return (
    <div className="session-history">
      <input type="search" aria-label="Search sessions" placeholder="Search sessions" value={query} onChange={(e) => setQuery(e.target.value)} />
      <ul aria-label="Sessions">
        {shown.map((s) => (
          <li key={s.id} className={s.id === props.currentId ? "current" : undefined}>
            <button className="link" onClick={() => props.onOpen(s.id)}>
              {s.title || "Untitled session"}
            </button>
            <span className="muted"> {relativeTime(s.updatedAt)}</span>
            <button className="link" aria-label={`Delete session ${s.title}`} onClick={() => props.onDelete(s.id)}>
              ×
            </button>
          </li>
        ))}
        {shown.length === 0 && <li className="muted">No sessions{query ? " match" : " yet"}.</li>}
      </ul>
    </div>
  );
}
