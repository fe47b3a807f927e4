"use client";
import { useCallback, useEffect, useRef, useState } from "react";

/** Two panes side by side with a draggable (and keyboard-resizable) splitter; the width is remembered. */
export function SplitPane(props: { storageKey: string; initial: number; min: number; max: number; left: React.ReactNode; right: React.ReactNode }) {
  const [width, setWidth] = useState(props.initial);
  const [dragging, setDragging] = useState(false);
  const start = useRef<{ x: number; width: number } | null>(null);

  useEffect(() => {
    const saved = Number(localStorage.getItem(props.storageKey));
    if (saved >= props.min && saved <= props.max) setWidth(saved);
  }, [props.storageKey, props.min, props.max]);

  const set = useCallback(
    (w: number) => {
      const clamped = Math.max(props.min, Math.min(props.max, Math.round(w)));
      setWidth(clamped);
      localStorage.setItem(props.storageKey, String(clamped));
    },
    [props.min, props.max, props.storageKey],
  );

  return (
    <div className="split">
      <div className="pane sidebar" style={{ width, flex: "none" }}>
        {props.left}
      </div>
      <div
        className={`splitter${dragging ? " dragging" : ""}`}
        role="separator"
        aria-orientation="vertical"
        aria-label="Resize sidebar"
        aria-valuenow={width}
        aria-valuemin={props.min}
        aria-valuemax={props.max}
        tabIndex={0}
        onPointerDown={(e) => {
          start.current = { x: e.clientX, width };
          setDragging(true);
          (e.target as HTMLElement).setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => start.current && set(start.current.width + e.clientX - start.current.x)}
        onPointerUp={() => {
          start.current = null;
          setDragging(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowLeft") set(width - 16);
          if (e.key === "ArrowRight") set(width + 16);
        }}
      />
      <div className="pane" style={{ flex: 1 }}>
        {props.right}
      </div>
    </div>
  );
}
