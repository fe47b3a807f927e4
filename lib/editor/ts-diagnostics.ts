/**
 * TypeScript diagnostics (as Monaco's TS worker returns them) turned into editor markers, the
 * way Monaco's own diagnostics adapter does. The editor re-checks files that did not change
 * themselves but whose imports did (Monaco only re-checks the file that was edited), and those
 * markers must look exactly like Monaco's.
 */
export interface TsDiagnosticChain {
  messageText: string;
  next?: TsDiagnosticChain[];
}

export interface TsDiagnostic {
  /** warning 0, error 1, suggestion 2, message 3 */
  category: number;
  code: number;
  start: number | undefined;
  length: number | undefined;
  messageText: string | TsDiagnosticChain;
  reportsUnnecessary?: unknown;
  reportsDeprecated?: unknown;
}

export interface MarkerPosition {
  lineNumber: number;
  column: number;
}

export interface MarkerFields {
  severity: number;
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
  message: string;
  code: string;
  tags: number[];
}

/** Monaco's MarkerSeverity and MarkerTag numbers. */
const SEVERITY: Record<number, number> = { 0: 4, 1: 8, 2: 1, 3: 2 };
const TAG_UNNECESSARY = 1;
const TAG_DEPRECATED = 2;

/** A chained message as TypeScript prints it: each link on its own line, indented by depth. */
export function flattenMessage(text: string | TsDiagnosticChain, newLine = "\n", indent = 0): string {
  if (typeof text === "string") return text;
  let out = "";
  if (indent) out += newLine + "  ".repeat(indent);
  out += text.messageText;
  for (const next of text.next ?? []) out += flattenMessage(next, newLine, indent + 1);
  return out;
}

export function markerFromDiagnostic(d: TsDiagnostic, positionAt: (offset: number) => MarkerPosition): MarkerFields {
  const start = d.start || 0;
  const length = d.length || 1;
  const from = positionAt(start);
  const to = positionAt(start + length);
  const tags: number[] = [];
  if (d.reportsUnnecessary) tags.push(TAG_UNNECESSARY);
  if (d.reportsDeprecated) tags.push(TAG_DEPRECATED);
  return {
    severity: SEVERITY[d.category] ?? 2,
    startLineNumber: from.lineNumber,
    startColumn: from.column,
    endLineNumber: to.lineNumber,
    endColumn: to.column,
    message: flattenMessage(d.messageText),
    code: String(d.code),
    tags,
  };
}
