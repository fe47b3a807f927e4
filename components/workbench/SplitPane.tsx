"use client";
import { useCallback, useEffect, useRef, useState } from "react";

/** Two panes side by side with a draggable (and keyboard-resizable) splitter; the width is remembered. */
export function SplitPane(props: {
  storageKey: string;
  initial: number;
  min: number;
  max: number;
  left: React.ReactNode;
  right: React.ReactNode;
  /** Which pane has the fixed (resizable) width; the other takes the rest. Default: left. */
  fixed?: "left" | "right";
  label?: string;
  className?: string;
  /** The fixed pane and the splitter are hidden (the other pane keeps its place in the tree, so nothing in it remounts). */
  collapsed?: boolean;
}) {
  const fixedRight = props.fixed === "right";
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
      <div className={`pane ${fixedRight ? "" : (props.className ?? "sidebar")}`} style={fixedRight ? { flex: 1 } : { width, flex: "none" }}>
        {props.left}
      </div>
      <div
        hidden={props.collapsed}
        className={`splitter${dragging ? " dragging" : ""}`}
        role="separator"
        aria-orientation="vertical"
        aria-label={props.label ?? "Resize sidebar"}
        aria-valuenow={width}
        aria-valuemin={props.min}
        aria-valuemax={props.max}
        tabIndex={0}
        onPointerDown={(e) => {
          start.current = { x: e.clientX, width };
          setDragging(true);
          (e.target as HTMLElement).setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => start.current && set(start.current.width + (fixedRight ? -1 : 1) * (e.clientX - start.current.x))}
        onPointerUp={() => {
          start.current = null;
          setDragging(false);
        }}
        onKeyDown={(e) => {
          if (e.key === "ArrowLeft") set(width + (fixedRight ? 16 : -16));
          if (e.key === "ArrowRight") set(width + (fixedRight ? -16 : 16));
        }}
      />
      <div hidden={props.collapsed} className={`pane ${fixedRight ? (props.className ?? "") : ""}`} style={fixedRight ? { width, flex: "none" } : { flex: 1 }}>
        {props.right}
      </div>
    </div>
  );
}

/** The editor above, the dock (terminals) below, with a draggable horizontal splitter. */
export function DockSplit(props: { storageKey: string; open: boolean; top: React.ReactNode; dock: React.ReactNode }) {
  const [height, setHeight] = useState(260);
  const start = useRef<{ y: number; height: number } | null>(null);
  useEffect(() => {
    const saved = Number(localStorage.getItem(props.storageKey));
    if (saved >= 80) setHeight(saved);
  }, [props.storageKey]);
  const set = (h: number) => {
    const clamped = Math.max(80, Math.min(window.innerHeight - 160, Math.round(h)));
    setHeight(clamped);
    localStorage.setItem(props.storageKey, String(clamped));
  };
  return (
    <div className="dock-split">
      <div className="dock-top">{props.top}</div>
      <div
        className="splitter horizontal"
        role="separator"
        aria-orientation="horizontal"
        aria-label="Resize terminal panel"
        tabIndex={0}
        hidden={!props.open}
        onPointerDown={(e) => {
          start.current = { y: e.clientY, height };
          (e.target as HTMLElement).setPointerCapture(e.pointerId);
        }}
        onPointerMove={(e) => start.current && set(start.current.height - (e.clientY - start.current.y))}
        onPointerUp={() => (start.current = null)}
        onKeyDown={(e) => {
          if (e.key === "ArrowUp") set(height + 16);
          if (e.key === "ArrowDown") set(height - 16);
        }}
      />
      <div className="dock" style={{ height, display: props.open ? "flex" : "none" }}>
        {props.dock}
      </div>
    </div>
  );
}
