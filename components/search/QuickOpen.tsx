"use client";
import { useMemo, useState } from "react";
import { fuzzyFilter } from "@/lib/search/fuzzy";

function highlight(path: string, positions: number[]) {
  const set = new Set(positions);
  return Array.from(path, (ch, i) => (set.has(i) ? <mark key={i}>{ch}</mark> : ch));
}

/** Ctrl+P: type part of a file name, arrows to choose, Enter to open. */
export function QuickOpen(props: { files: string[]; onOpen: (path: string) => void; onClose: () => void }) {
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState(0);
  const matches = useMemo(() => fuzzyFilter(query, props.files, 50), [query, props.files]);

  return (
    <div className="dialog-backdrop" style={{ background: "transparent" }} onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div className="palette" role="dialog" aria-label="Quick open">
        <input
          autoFocus
          type="text"
          placeholder="Search files by name"
          aria-label="Search files by name"
          role="combobox"
          aria-expanded="true"
          aria-controls="quick-open-list"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") setIndex((i) => Math.min(matches.length - 1, i + 1));
            else if (e.key === "ArrowUp") setIndex((i) => Math.max(0, i - 1));
            else if (e.key === "Enter" && matches[index]) props.onOpen(matches[index].path);
            else if (e.key === "Escape") props.onClose();
            else return;
            e.preventDefault();
          }}
        />
        <ul id="quick-open-list" role="listbox">
          {matches.map((m, i) => {
            const slash = m.path.lastIndexOf("/");
            return (
              <li key={m.path} role="option" aria-selected={i === index} onMouseEnter={() => setIndex(i)} onClick={() => props.onOpen(m.path)}>
                <span>{highlight(m.path, m.positions).slice(slash + 1)}</span>
                <span className="dir">{slash > 0 ? m.path.slice(0, slash) : ""}</span>
              </li>
            );
          })}
          {matches.length === 0 && <li className="muted">No matching files</li>}
        </ul>
      </div>
    </div>
  );
}
