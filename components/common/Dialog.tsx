"use client";
import { useEffect, useRef } from "react";

/** A modal dialog: Escape cancels, focus starts inside, the backdrop click cancels. */
export function Dialog(props: { title: string; onCancel: () => void; children: React.ReactNode; actions: React.ReactNode; label?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const first = ref.current?.querySelector<HTMLElement>("input, button.primary, button.danger, button");
    first?.focus();
  }, []);
  return (
    <div className="dialog-backdrop" onMouseDown={(e) => e.target === e.currentTarget && props.onCancel()}>
      <div
        ref={ref}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-label={props.label ?? props.title}
        onKeyDown={(e) => {
          if (e.key === "Escape") {
            e.stopPropagation();
            props.onCancel();
          }
        }}
      >
        <h3>{props.title}</h3>
        {props.children}
        <div className="actions">{props.actions}</div>
      </div>
    </div>
  );
}

export function ConfirmDialog(props: { title: string; message: React.ReactNode; confirmLabel: string; danger?: boolean; onConfirm: () => void; onCancel: () => void }) {
  return (
    <Dialog
      title={props.title}
      onCancel={props.onCancel}
      actions={
        <>
          <button onClick={props.onCancel}>Cancel</button>
          <button className={props.danger ? "danger" : "primary"} onClick={props.onConfirm}>
            {props.confirmLabel}
          </button>
        </>
      }
    >
      <div>{props.message}</div>
    </Dialog>
  );
}

export function ProgressBar(props: { done: number; total?: number; label: string }) {
  const pct = props.total ? Math.min(100, Math.round((props.done / props.total) * 100)) : undefined;
  return (
    <div role="progressbar" aria-label={props.label} aria-valuenow={pct} aria-valuemin={0} aria-valuemax={100} style={{ marginTop: 8 }}>
      <div className="progress">
        <div style={{ width: `${pct ?? 100}%`, opacity: pct === undefined ? 0.4 : 1 }} />
      </div>
      <div className="muted" style={{ fontSize: 12 }}>
        {props.label}
        {pct !== undefined ? ` — ${pct}%` : ""}
      </div>
    </div>
  );
}
