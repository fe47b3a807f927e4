"use client";
import { useEffect, useRef, useState, type MouseEvent, type ReactNode } from "react";

export interface PickRow {
  key: string;
  /** The main text, with matched characters highlighted. */
  primary: ReactNode;
  /** Muted text after it (a folder, a detail). */
  secondary?: ReactNode;
  /** Right-aligned (the keybinding). */
  hint?: ReactNode;
}

/** Wraps the characters at `positions` of `text` in <mark>. */
export function highlight(text: string, positions: readonly number[], from = 0): ReactNode[] {
  const set = new Set(positions);
  return Array.from(text, (ch, i) => (set.has(i + from) ? <mark key={i}>{ch}</mark> : ch));
}

/**
 * The input-over-a-list widget of quick open, the command palette and a command's questions:
 * typing filters (the caller does), arrows move, Enter picks, Escape or a click outside closes.
 */
export function PickList(props: {
  label: string;
  placeholder: string;
  query: string;
  onQuery: (query: string) => void;
  rows: PickRow[];
  /** Enter or a click: the index of the chosen row, or -1 when Enter is pressed on an empty list. */
  onPick: (index: number) => void;
  onClose: () => void;
  empty?: string;
  /** A line above the list (the question being asked, an error). */
  message?: ReactNode;
  error?: boolean;
}) {
  const [index, setIndex] = useState(0);
  const list = useRef<HTMLUListElement>(null);
  // The pointer selects a row only once it really moves: a list opening under a resting mouse (or
  // scrolling under it) must not take the selection from the keyboard.
  const pointer = useRef<{ x: number; y: number } | null>(null);
  const hover = (e: MouseEvent, i: number) => {
    const last = pointer.current;
    pointer.current = { x: e.clientX, y: e.clientY };
    if (last && (last.x !== e.clientX || last.y !== e.clientY)) setIndex(i);
  };
  const count = props.rows.length;
  const selected = Math.min(index, Math.max(0, count - 1));

  useEffect(() => {
    list.current?.querySelector('[aria-selected="true"]')?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);

  return (
    <div className="dialog-backdrop" style={{ background: "transparent" }} onMouseDown={(e) => e.target === e.currentTarget && props.onClose()}>
      <div className="palette" role="dialog" aria-label={props.label}>
        <input
          autoFocus
          type="text"
          placeholder={props.placeholder}
          aria-label={props.placeholder}
          role="combobox"
          aria-expanded="true"
          aria-controls="pick-list"
          aria-activedescendant={count ? `pick-${selected}` : undefined}
          value={props.query}
          // A prefilled answer (a folder for a new file) is continued, not typed over.
          onFocus={(e) => e.currentTarget.setSelectionRange(e.currentTarget.value.length, e.currentTarget.value.length)}
          onChange={(e) => {
            props.onQuery(e.target.value);
            setIndex(0);
          }}
          onKeyDown={(e) => {
            if (e.key === "ArrowDown") setIndex(count ? (selected + 1) % count : 0);
            else if (e.key === "ArrowUp") setIndex(count ? (selected - 1 + count) % count : 0);
            else if (e.key === "PageDown") setIndex(Math.min(count - 1, selected + 10));
            else if (e.key === "PageUp") setIndex(Math.max(0, selected - 10));
            else if (e.key === "Enter") props.onPick(count ? selected : -1);
            else if (e.key === "Escape") props.onClose();
            else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        />
        {props.message && (
          <div className={`palette-message${props.error ? " error" : ""}`} role={props.error ? "alert" : "status"}>
            {props.message}
          </div>
        )}
        <ul id="pick-list" role="listbox" ref={list} aria-label={props.label}>
          {props.rows.map((row, i) => (
            <li key={row.key} id={`pick-${i}`} role="option" aria-selected={i === selected} onMouseMove={(e) => hover(e, i)} onClick={() => props.onPick(i)}>
              <span>{row.primary}</span>
              {row.secondary !== undefined && <span className="dir">{row.secondary}</span>}
              {row.hint !== undefined && <span className="keys">{row.hint}</span>}
            </li>
          ))}
          {count === 0 && props.empty && <li className="muted">{props.empty}</li>}
        </ul>
      </div>
    </div>
  );
}
