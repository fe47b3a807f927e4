"use client";
import { useRef, useState } from "react";
import type { Tick } from "@/lib/timeline";
import { NameForm } from "@/components/common/NameForm";

function timeOf(ms: number): string {
  return new Date(ms).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" });
}

export function tickText(t: Tick): string {
  return `${t.title}${t.detail ? `: ${t.detail}` : ""}`;
}

/**
 * The scrubber: one tick per checkpoint of the session, "now" at the right end. Drag the
 * handle, click a tick, or focus the slider and use ←/→ (Home = first, End/Escape = now).
 * Selecting a tick only previews it; nothing is written.
 */
export function TimelineBar(props: {
  /** A replay: no save points, no history (nothing here can be written). */
  viewOnly?: boolean;
  ticks: Tick[];
  /** Index into ticks, or null for now. */
  selected: number | null;
  onSelect: (index: number | null) => void;
  onSavePoint: (name?: string) => Promise<void>;
  onHistory: () => void;
  historyOpen: boolean;
  disabled?: boolean;
}) {
  const { ticks, selected } = props;
  const n = ticks.length; // position n = now
  const pos = selected ?? n;
  const track = useRef<HTMLDivElement>(null);
  const [naming, setNaming] = useState(false);

  const go = (p: number) => props.onSelect(p >= n ? null : Math.max(0, p));
  const left = (p: number) => (n === 0 ? 100 : (p / n) * 100);
  const nearest = (clientX: number) => {
    const r = track.current!.getBoundingClientRect();
    const x = Math.min(1, Math.max(0, (clientX - r.left) / Math.max(1, r.width)));
    return Math.round(x * n);
  };

  const current = selected === null ? undefined : ticks[selected];
  const valueText = current ? `${tickText(current)} (${timeOf(current.at)})` : "Now";

  return (
    <div className="timeline" aria-label="Checkpoint timeline">
      <div className="timeline-head">
        <span className="muted">Timeline</span>
        <span className="spacer" />
        {props.viewOnly ? null : !naming ? (
          <button onClick={() => setNaming(true)} disabled={props.disabled} aria-label="New save point" title="Snapshot the workspace now, as a named point to come back to">
            + Save point
          </button>
        ) : (
          <NameForm
            label="Save point name"
            placeholder="Name (optional)"
            submitLabel="Save"
            onSubmit={(name) => props.onSavePoint(name.trim() || undefined).then(() => setNaming(false))}
            onCancel={() => setNaming(false)}
          />
        )}
        {!props.viewOnly && (
          <button onClick={props.onHistory} aria-pressed={props.historyOpen} title="Every session's checkpoints, storage and pruning">
            All checkpoints
          </button>
        )}
      </div>
      {n === 0 ? (
        <div className="timeline-label muted">No checkpoints yet: each run snapshots the workspace before it changes anything.</div>
      ) : (
        <>
          <div
            ref={track}
            className="timeline-track"
            onPointerDown={(e) => {
              if ((e.target as HTMLElement).closest("button")) return;
              track.current!.setPointerCapture(e.pointerId);
              go(nearest(e.clientX));
            }}
            onPointerMove={(e) => {
              if (track.current!.hasPointerCapture(e.pointerId)) go(nearest(e.clientX));
            }}
          >
            {ticks.map((t, i) => (
              <button
                key={t.ref}
                tabIndex={-1}
                className={`timeline-tick kind-${t.kind}${t.since?.by === "you" ? " by-you" : ""}${t.pinned ? " pinned" : ""}`}
                style={{ left: `${left(i)}%` }}
                aria-label={`${tickText(t)}, ${timeOf(t.at)}`}
                title={`${tickText(t)}\n${timeOf(t.at)}${t.since?.by === "you" ? "\nIncludes your edits since the previous point" : ""}`}
                onClick={() => go(i)}
              />
            ))}
            <button tabIndex={-1} className="timeline-tick now" style={{ left: "100%" }} aria-label="Now" title="Now: the working tree as it is" onClick={() => go(n)} />
            <div
              className="timeline-handle timeline-slider"
              role="slider"
              tabIndex={0}
              aria-label="Scrub checkpoints"
              aria-valuemin={0}
              aria-valuemax={n}
              aria-valuenow={pos}
              aria-valuetext={valueText}
              style={{ left: `${left(pos)}%`, pointerEvents: "auto" }}
              onKeyDown={(e) => {
                const k = e.key;
                if (k === "ArrowLeft" || k === "ArrowDown") go(pos - 1);
                else if (k === "ArrowRight" || k === "ArrowUp") go(pos + 1);
                else if (k === "Home") go(0);
                else if (k === "End" || k === "Escape") go(n);
                else return;
                e.preventDefault();
                e.stopPropagation();
              }}
            />
          </div>
          <div className="timeline-label" data-testid="timeline-position">
            {current ? (
              <>
                <strong>{current.title}</strong>
                {current.detail ? ` · ${current.detail}` : ""} <span className="muted">· {timeOf(current.at)}</span>
              </>
            ) : (
              <span className="muted">Now · {n} checkpoint{n === 1 ? "" : "s"} · ← to go back</span>
            )}
          </div>
        </>
      )}
    </div>
  );
}
