"use client";
import { useState } from "react";
import type { ToolCallPart, ToolResultPart } from "@/lib/agent";

const STATUS_LABEL: Record<string, string> = {
  ok: "done",
  error: "error",
  blocked: "blocked",
  rejected: "rejected",
  skipped: "skipped",
  aborted: "stopped",
  running: "running…",
};

/** Paths a tool call names (read_files, editor, apply_patch…), for links that open them in the editor. */
function pathsOf(input: unknown): string[] {
  if (!input || typeof input !== "object") return [];
  const i = input as Record<string, unknown>;
  const out: string[] = [];
  if (typeof i.path === "string") out.push(i.path);
  if (Array.isArray(i.paths)) for (const p of i.paths) if (typeof p === "string") out.push(p);
  if (Array.isArray(i.files)) for (const f of i.files) if (f && typeof f === "object" && typeof (f as { path?: unknown }).path === "string") out.push((f as { path: string }).path);
  return out;
}

/** A call's arguments in a few words for its row (the commands, the edit and its path, the pattern), before its result has a summary. */
function oneLine(input: unknown): string {
  if (!input || typeof input !== "object") return "";
  const i = input as Record<string, unknown>;
  if (Array.isArray(i.commands)) return i.commands.join(" && ");
  if (typeof i.commands === "string") return i.commands;
  if (typeof i.command === "string" && typeof i.path === "string") return `${i.command} ${i.path}`;
  if (typeof i.command === "string") return i.command;
  if (typeof i.pattern === "string") return i.pattern;
  return pathsOf(input).join(", ");
}

/** Per-file unified diffs a finished edit reported (editor: one file; apply_patch: several). */
function editDiffs(result: ToolResultPart | undefined): { path: string; diff: string }[] {
  const data = result?.ui?.status === "ok" ? result.ui.data : undefined;
  if (!data) return [];
  if (typeof data.path === "string" && typeof data.diff === "string") return [{ path: data.path, diff: data.diff }];
  if (Array.isArray(data.files))
    return data.files.filter((f): f is { path: string; diff: string } => !!f && typeof f.path === "string" && typeof f.diff === "string");
  return [];
}

/** A tool call as one compact row; click to expand its arguments and what the model read back. */
export function ToolRow(props: { call: ToolCallPart; result?: ToolResultPart; running?: boolean; onOpenFile: (path: string) => void; onOpenDiff?: (path: string, unifiedDiff: string) => void }) {
  const [open, setOpen] = useState(false);
  const status = props.running ? "running" : (props.result?.ui?.status ?? (props.result ? (props.result.output.type === "error-text" ? "error" : "ok") : "aborted"));
  const blocked = props.result?.ui?.blockedByPolicy;
  return (
    <div className={`tool-row status-${status}`} data-tool={props.call.toolName} data-status={status}>
      <button className="tool-head" aria-expanded={open} onClick={() => setOpen(!open)}>
        <span className="tool-name">{props.call.toolName}</span>
        <span className="tool-arg">{props.result?.ui?.summary ?? oneLine(props.call.input)}</span>
        <span className={`tool-status ${status}`}>{blocked ? "blocked by policy" : STATUS_LABEL[status] ?? status}</span>
      </button>
      {pathsOf(props.call.input).length > 0 && (
        <div className="tool-paths">
          {pathsOf(props.call.input).map((p) => (
            <button key={p} className="link mono" onClick={() => props.onOpenFile(p)}>
              {p}
            </button>
          ))}
        </div>
      )}
      {props.onOpenDiff && editDiffs(props.result).length > 0 && (
        <div className="tool-paths">
          {editDiffs(props.result).map((d) => (
            <button key={d.path} className="link" onClick={() => props.onOpenDiff!(d.path, d.diff)}>
              Open diff of {d.path}
            </button>
          ))}
        </div>
      )}
      {blocked && props.result && <div className="tool-blocked">{props.result.output.value}</div>}
      {open && (
        <div className="tool-body">
          <div className="muted">Arguments</div>
          <pre>{JSON.stringify(props.call.input, null, 2)}</pre>
          {props.result && (
            <>
              <div className="muted">Result</div>
              <pre>{props.result.output.value}</pre>
            </>
          )}
        </div>
      )}
    </div>
  );
}
