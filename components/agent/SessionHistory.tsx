"use client";
import { useEffect, useState } from "react";
import type { SessionMeta, SessionSearchResult } from "@/lib/sessions";
import { relativeTime } from "@/components/common/download";

const SEARCH_DELAY_MS = 150;

/**
 * The workspace's past sessions; open one to resume it. The search box looks through whole
 * transcripts (prompts, answers, tool calls, file names, tool output) and lists where each word
 * was found; a hit opens its session at that message.
 */
export function SessionHistory(props: {
  sessions: SessionMeta[];
  currentId: string;
  onOpen: (id: string) => void;
  onOpenAt: (id: string, messageId: string) => void;
  onDelete: (id: string) => void;
  search: (query: string) => Promise<SessionSearchResult[]>;
}) {
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<{ query: string; list: SessionSearchResult[] }>();
  const [error, setError] = useState<string>();
  const { search } = props;
  useEffect(() => {
    const q = query.trim();
    if (!q) return setResults(undefined);
    let cancelled = false;
    const timer = setTimeout(() => {
      search(q)
        .then((list) => {
          if (cancelled) return;
          setResults({ query: q, list });
          setError(undefined);
        })
        .catch((e: Error) => !cancelled && setError(`Search failed: ${e.message}`));
    }, SEARCH_DELAY_MS);
    return () => {
      cancelled = true;
      clearTimeout(timer);
    };
  }, [query, search]);

  const searching = query.trim() !== "";
  return (
    <div className="session-history">
      <input type="search" aria-label="Search sessions" placeholder="Search sessions: prompts, answers, tool calls, files" value={query} onChange={(e) => setQuery(e.target.value)} />
      {error && (
        <div className="error" role="alert">
          {error}
        </div>
      )}
      {!searching ? (
        <ul aria-label="Sessions">
          {props.sessions.map((s) => (
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
          {props.sessions.length === 0 && <li className="muted">No sessions yet.</li>}
        </ul>
      ) : !results ? (
        <div className="muted">Searching…</div>
      ) : (
        <ul aria-label="Search results">
          {results.list.map((r) => (
            <li key={r.sessionId} className={r.sessionId === props.currentId ? "current" : undefined} data-testid="session-result">
              <button className="link" onClick={() => props.onOpen(r.sessionId)}>
                {r.title || "Untitled session"}
              </button>
              <span className="muted"> {relativeTime(r.updatedAt)}</span>
              {r.hits.length > 0 && (
                <ul className="search-hits" aria-label={`Matches in ${r.title || "Untitled session"}`}>
                  {r.hits.map((h) => (
                    <li key={h.messageId}>
                      <button className="link" onClick={() => props.onOpenAt(r.sessionId, h.messageId)} title="Open the session at this message">
                        <span className="muted">{h.where === "tool call" || h.where === "tool result" ? `${h.where} ${h.tool ?? ""}`.trim() : h.where}:</span> {h.snippet}
                      </button>
                    </li>
                  ))}
                  {r.more > 0 && <li className="muted">and {r.more} more message{r.more === 1 ? "" : "s"}</li>}
                </ul>
              )}
            </li>
          ))}
          {results.list.length === 0 && <li className="muted">No session mentions “{results.query}”.</li>}
        </ul>
      )}
    </div>
  );
}
