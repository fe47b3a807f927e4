/**
 * The run's `console`: log/info/debug to stdout, error/warn/trace to stderr, formatted by
 * util.format (so objects print as Node prints them), with group indentation, count, time,
 * assert, dir and a table.
 */
import { format, inspect, type InspectOptions } from "./inspect";

export function createConsole(write: (stream: "stdout" | "stderr", text: string) => void): Record<string, unknown> {
  let indent = "";
  const counts = new Map<string, number>();
  const timers = new Map<string, number>();
  const out = (stream: "stdout" | "stderr", args: unknown[]) => {
    const text = format(...args);
    write(stream, (indent ? text.split("\n").map((l) => indent + l).join("\n") : text) + "\n");
  };
  const elapsed = (label: string) => {
    const ms = performance.now() - timers.get(label)!;
    return ms >= 1000 ? `${(ms / 1000).toFixed(3)}s` : `${ms.toFixed(3)}ms`;
  };
  const c: Record<string, unknown> = {
    log: (...a: unknown[]) => out("stdout", a),
    info: (...a: unknown[]) => out("stdout", a),
    debug: (...a: unknown[]) => out("stdout", a),
    error: (...a: unknown[]) => out("stderr", a),
    warn: (...a: unknown[]) => out("stderr", a),
    trace: (...a: unknown[]) => {
      const err = new Error(format(...a));
      err.name = "Trace";
      out("stderr", [err.stack?.split("\n").filter((l, i) => i === 0 || !l.includes("console.ts")).join("\n")]);
    },
    dir: (v: unknown, o?: InspectOptions) => write("stdout", indent + inspect(v, o) + "\n"),
    dirxml: (...a: unknown[]) => out("stdout", a),
    assert: (cond: unknown, ...a: unknown[]) => {
      if (!cond) out("stderr", a.length ? [`Assertion failed: ${typeof a[0] === "string" ? a[0] : inspect(a[0])}`, ...a.slice(1)] : ["Assertion failed"]);
    },
    group: (...a: unknown[]) => {
      if (a.length) out("stdout", a);
      indent += "  ";
    },
    groupCollapsed: (...a: unknown[]) => (c.group as (...x: unknown[]) => void)(...a),
    groupEnd: () => {
      indent = indent.slice(2);
    },
    count: (label = "default") => {
      const n = (counts.get(label) ?? 0) + 1;
      counts.set(label, n);
      out("stdout", [`${label}: ${n}`]);
    },
    countReset: (label = "default") => counts.delete(label),
    time: (label = "default") => {
      timers.set(label, performance.now());
    },
    timeLog: (label = "default", ...a: unknown[]) => {
      if (!timers.has(label)) return out("stderr", [`Warning: No such label '${label}' for console.timeLog()`]);
      out("stdout", [`${label}: ${elapsed(label)}`, ...a]);
    },
    timeEnd: (label = "default") => {
      if (!timers.has(label)) return out("stderr", [`Warning: No such label '${label}' for console.timeEnd()`]);
      out("stdout", [`${label}: ${elapsed(label)}`]);
      timers.delete(label);
    },
    table: (data: unknown) => {
      if (data === null || typeof data !== "object") return out("stdout", [data]);
      const rows = Object.entries(data as Record<string, unknown>);
      const cols: string[] = [];
      let hasValues = false;
      for (const [, v] of rows) {
        if (v !== null && typeof v === "object") for (const k of Object.keys(v)) !cols.includes(k) && cols.push(k);
        else hasValues = true;
      }
      const header = ["(index)", ...cols, ...(hasValues ? ["Values"] : [])];
      const cell = (v: unknown) => (v === undefined ? "" : inspect(v, { depth: 0, breakLength: Infinity }));
      const body = rows.map(([k, v]) => [k, ...cols.map((col) => (v !== null && typeof v === "object" ? cell((v as Record<string, unknown>)[col]) : "")), ...(hasValues ? [v !== null && typeof v === "object" ? "" : cell(v)] : [])]);
      const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i]!.length)) + 2);
      // Cells are left-aligned after one space, as Node 20 prints them.
      const center = (s: string, w: number) => " " + s.padEnd(w - 1, " ");
      const line = (l: string, m: string, r: string) => l + widths.map((w) => "─".repeat(w)).join(m) + r;
      const lines = [line("┌", "┬", "┐"), "│" + header.map((h, i) => center(h, widths[i]!)).join("│") + "│", line("├", "┼", "┤"), ...body.map((r) => "│" + r.map((s, i) => center(s, widths[i]!)).join("│") + "│"), line("└", "┴", "┘")];
      write("stdout", lines.map((l) => indent + l).join("\n") + "\n");
    },
  };
  return c;
}
