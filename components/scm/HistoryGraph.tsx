"use client";
import { useEffect, useState } from "react";
import { layoutGraph, type GraphRow } from "@/lib/scm/history";
import type { SourceControl } from "@/lib/scm/source-control";

const LANE = 12;
const ROW = 22;
const COLORS = ["#388bfd", "#3fb950", "#d29922", "#db61a2", "#a371f7", "#f85149"];
const colour = (i: number) => COLORS[i % COLORS.length]!;

/** One row's slice of the graph: lanes passing through, joining the dot, and leaving it for the parents. */
function RowGraph({ row, width }: { row: GraphRow; width: number }) {
  const x = (i: number) => i * LANE + LANE / 2;
  const mid = ROW / 2;
  const lines: React.ReactNode[] = [];
  row.before.forEach((lane, i) => {
    if (lane === null) return;
    if (lane === row.oid) lines.push(<line key={`in${i}`} x1={x(i)} y1={0} x2={x(row.column)} y2={mid} stroke={colour(i)} />);
    else {
      const j = row.after.indexOf(lane);
      lines.push(<line key={`through${i}`} x1={x(i)} y1={0} x2={x(j === -1 ? i : j)} y2={ROW} stroke={colour(i)} />);
    }
  });
  // To the parents: the first continues the commit's column, the others go to their lanes.
  row.parents.forEach((p, k) => {
    const j = k === 0 && row.after[row.column] === p ? row.column : row.after.indexOf(p);
    if (j !== -1) lines.push(<line key={`out${k}`} x1={x(row.column)} y1={mid} x2={x(j)} y2={ROW} stroke={colour(j)} />);
  });
  return (
    <svg width={width} height={ROW} aria-hidden="true" className="history-graph">
      {lines}
      <circle cx={x(row.column)} cy={mid} r={row.parents.length > 1 ? 3 : 4} fill={row.parents.length > 1 ? "var(--bg)" : colour(row.column)} stroke={colour(row.column)} strokeWidth={2} />
    </svg>
  );
}

function ago(time: number): string {
  const s = Math.max(0, Date.now() / 1000 - time);
  for (const [n, unit] of [[31536000, "year"], [2592000, "month"], [86400, "day"], [3600, "hour"], [60, "minute"]] as const)
    if (s >= n) return `${Math.floor(s / n)} ${unit}${Math.floor(s / n) === 1 ? "" : "s"} ago`;
  return "just now";
}

/** The view's History: the latest commits of every branch with their graph; a click shows the commit. */
export function HistoryGraph(props: { scm: SourceControl; refreshKey: unknown }) {
  const { scm, refreshKey } = props;
  const [open, setOpen] = useState(false);
  const [rows, setRows] = useState<GraphRow[]>();
  const [selected, setSelected] = useState<{ oid: string; text: string }>();
  useEffect(() => {
    if (!open) return;
    let cancelled = false;
    scm.history(100).then(
      (list) => !cancelled && setRows(layoutGraph(list)),
      () => !cancelled && setRows([]),
    );
    return () => {
      cancelled = true;
    };
  }, [scm, open, refreshKey]);
  const width = Math.max(1, ...(rows ?? []).map((r) => Math.max(r.before.length, r.after.length, r.column + 1))) * LANE;
  return (
    <section className="scm-group" aria-label="History">
      <div className="scm-group-head">
        <button className="scm-group-toggle" aria-expanded={open} onClick={() => setOpen((o) => !o)}>
          {open ? "▾" : "▸"} History
        </button>
      </div>
      {open && (
        <ul className="scm-files history" aria-label="Commits">
          {rows?.length === 0 && <li className="muted scm-empty">No commits yet.</li>}
          {rows?.map((r) => (
            <li key={r.oid} className="history-row" data-oid={r.oid}>
              <button
                className="scm-file history-item"
                title={`${r.oid.slice(0, 8)} — ${r.author}, ${new Date(r.time * 1000).toLocaleString()}`}
                aria-expanded={selected?.oid === r.oid}
                onClick={() =>
                  selected?.oid === r.oid
                    ? setSelected(undefined)
                    : void scm.show(r.oid).then(
                        (text) => setSelected({ oid: r.oid, text }),
                        (e) => setSelected({ oid: r.oid, text: (e as Error).message }),
                      )
                }
              >
                <RowGraph row={r} width={width} />
                <span className="history-subject">{r.subject}</span>
                {r.refs.map((ref) => (
                  <span key={ref} className="badge history-ref">
                    {ref}
                  </span>
                ))}
                <span className="muted history-meta">
                  {r.author} · {ago(r.time)}
                </span>
              </button>
              {selected?.oid === r.oid && <pre className="history-details" data-testid="commit-details">{selected.text}</pre>}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
