/**
 * The workspace's problems (errors and warnings of its TS/JS files), as the Problems panel,
 * the status bar and the agent read them. The editor publishes into `workspaceProblems`; this
 * module only groups, counts and formats, so it is the same list everywhere.
 *
 * Reading it elsewhere (e.g. an "@problems" mention for the agent):
 *   workspaceProblems.list()            // every problem, by file then line
 *   workspaceProblems.subscribe(fn)     // called after each change; returns the unsubscribe
 *   workspaceProblems.checking          // true until the first full check is done
 *   formatProblems(workspaceProblems.list())  // the plain-text form for a prompt
 */
export type ProblemSeverity = "error" | "warning" | "info";

export interface Problem {
  /** Workspace-relative path. */
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: ProblemSeverity;
  message: string;
  /** e.g. "2322" for a TypeScript diagnostic. */
  code?: string;
  /** Who reported it ("typescript", "javascript"). */
  source?: string;
}

export interface ProblemGroup {
  path: string;
  problems: Problem[];
  errors: number;
  warnings: number;
}

export interface ProblemCounts {
  errors: number;
  warnings: number;
  infos: number;
}

const RANK: Record<ProblemSeverity, number> = { error: 0, warning: 1, info: 2 };

/** Monaco's MarkerSeverity numbers (Hint 1, Info 2, Warning 4, Error 8). Hints (faded unused code) are not problems. */
export function severityOfMarker(n: number): ProblemSeverity | undefined {
  if (n >= 8) return "error";
  if (n >= 4) return "warning";
  if (n >= 2) return "info";
  return undefined;
}

/** The shape of a Monaco marker this module reads (kept structural so lib/ needs no Monaco). */
export interface MarkerLike {
  owner: string;
  severity: number;
  message: string;
  code?: string | { value: string };
  startLineNumber: number;
  startColumn: number;
  endLineNumber: number;
  endColumn: number;
}

export function problemFromMarker(path: string, m: MarkerLike): Problem | undefined {
  const severity = severityOfMarker(m.severity);
  if (!severity) return undefined;
  const code = typeof m.code === "string" ? m.code : m.code?.value;
  return { path, line: m.startLineNumber, column: m.startColumn, endLine: m.endLineNumber, endColumn: m.endColumn, severity, message: m.message, code, source: m.owner };
}

function compare(a: Problem, b: Problem): number {
  return a.line - b.line || a.column - b.column || RANK[a.severity] - RANK[b.severity];
}

/** Problems by file (files in path order), each file's by line; a file with none has no group. */
export function groupProblems(problems: readonly Problem[]): ProblemGroup[] {
  const byPath = new Map<string, Problem[]>();
  for (const p of problems) {
    const list = byPath.get(p.path);
    if (list) list.push(p);
    else byPath.set(p.path, [p]);
  }
  return [...byPath.keys()]
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map((path) => {
      const list = byPath.get(path)!.sort(compare);
      return { path, problems: list, errors: list.filter((p) => p.severity === "error").length, warnings: list.filter((p) => p.severity === "warning").length };
    });
}

export function countProblems(problems: readonly Problem[]): ProblemCounts {
  const counts = { errors: 0, warnings: 0, infos: 0 };
  for (const p of problems) {
    if (p.severity === "error") counts.errors++;
    else if (p.severity === "warning") counts.warnings++;
    else counts.infos++;
  }
  return counts;
}

/** One line per problem, `path:line:column severity TScode: message`, the form compilers print. */
export function formatProblems(problems: readonly Problem[]): string {
  if (problems.length === 0) return "No problems.";
  return groupProblems(problems)
    .flatMap((g) => g.problems)
    .map((p) => `${p.path}:${p.line}:${p.column} ${p.severity}${p.code ? ` ${p.source === "typescript" || p.source === "javascript" ? "TS" : ""}${p.code}` : ""}: ${p.message.split("\n")[0]}`)
    .join("\n");
}

type Listener = () => void;

/**
 * The current problems, replaced file by file as the checker reports them.
 *
 * The checker reports a file at a time, thousands of them when a big repository opens: the
 * sorted list is rebuilt only when someone reads it, and subscribers hear of a burst of file
 * reports once (after FILE_NOTIFY_MS), not once per file — rebuilding and re-rendering per file
 * was quadratic and held the main thread for seconds.
 */
export class ProblemsStore {
  private byPath = new Map<string, Problem[]>();
  private listeners = new Set<Listener>();
  private snapshot: Problem[] = [];
  private stale = false;
  private notifyTimer: ReturnType<typeof setTimeout> | undefined;
  private noticeList: string[] = [];
  private isChecking = false;

  /** True while the workspace is being read and checked for the first time: the counts are not final yet. */
  get checking(): boolean {
    return this.isChecking;
  }

  setChecking(checking: boolean): void {
    if (this.isChecking === checking) return;
    this.isChecking = checking;
    this.notify();
  }

  /** Things the user should know about the checking itself (a config not understood, files left out). */
  notices(): string[] {
    return this.noticeList;
  }

  setNotices(notices: string[]): void {
    if (notices.length === this.noticeList.length && notices.every((n, i) => n === this.noticeList[i])) return;
    this.noticeList = [...notices];
    this.notify();
  }

  /** The problems of one file (an empty list clears it). Subscribers hear of it within FILE_NOTIFY_MS. */
  setFile(path: string, problems: Problem[]): void {
    const before = this.byPath.get(path);
    if (!before?.length && problems.length === 0) return;
    if (problems.length === 0) this.byPath.delete(path);
    else this.byPath.set(path, problems);
    this.stale = true;
    this.notifyTimer ??= setTimeout(() => this.notify(), FILE_NOTIFY_MS);
  }

  /** Forget every file and notice (a different workspace opened). */
  clear(): void {
    this.byPath.clear();
    this.noticeList = [];
    this.isChecking = false;
    this.stale = true;
    this.notify();
  }

  /** Every problem, by file then line. The same array until the next change (safe for React's useSyncExternalStore). */
  list(): Problem[] {
    if (this.stale) {
      this.snapshot = groupProblems([...this.byPath.values()].flat()).flatMap((g) => g.problems);
      this.stale = false;
    }
    return this.snapshot;
  }

  counts(): ProblemCounts {
    return countProblems(this.list());
  }

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private notify() {
    clearTimeout(this.notifyTimer);
    this.notifyTimer = undefined;
    for (const l of [...this.listeners]) l();
  }
}

/** How long file reports gather before subscribers hear of them. */
export const FILE_NOTIFY_MS = 50;

/** The page's one workbench publishes its problems here. */
export const workspaceProblems = new ProblemsStore();
