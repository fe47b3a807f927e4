/**
 * Replace in files, in two steps as VS Code does it: a plan computed from the files on disk (what
 * the preview shows, line by line), then an apply that writes only files still exactly as the plan
 * read them, keeping what it overwrote so the whole replace can be undone.
 *
 * The pattern is the find-in-files one (RE2, linear time, matched line by line), so the preview
 * changes exactly the lines the search listed — every match of each, not only the first.
 * With a regular expression the replacement reads as String.prototype.replace's ($1, $&, $<name>,
 * $$); with plain text it is inserted literally.
 */
import type { WorkspaceFs } from "../fs/workspace-fs";
import { looksBinary } from "../editor/file-kind";
import { compilePattern, PatternError, type PatternOptions, type SearchPattern } from "./pattern";
import { SEARCH_LARGE_FILE_BYTES } from "./search-file";

export interface ReplaceOptions extends PatternOptions {
  /** Paths to leave out entirely (ignored files, the include/exclude fields). */
  skip?: (path: string) => boolean;
  /** Why a file must not be written now (e.g. it has unsaved edits in the editor); it is listed, not changed. */
  blocked?: (path: string) => string | undefined;
  signal?: AbortSignal;
}

/** One changed line of the preview (1-based). */
export interface ReplacedLine {
  line: number;
  before: string;
  after: string;
}

export interface FileReplacement {
  path: string;
  /** The file's text as the plan read it, and with every match replaced. */
  before: string;
  after: string;
  /** How many matches were replaced. */
  count: number;
  lines: ReplacedLine[];
}

export interface ReplacePlan {
  files: FileReplacement[];
  /** Files with matches that will not be written, and why. */
  blocked: { path: string; reason: string }[];
  /** Text files over SEARCH_LARGE_FILE_BYTES: searched by find, not rewritten here. */
  tooLarge: string[];
}

export interface ReplaceOutcome {
  /** What was written: the undo of this replace puts `before` back where `after` still stands. */
  written: FileReplacement[];
  /** Files left alone because they changed on disk after the preview. */
  changedSincePreview: string[];
}

const LINE_BREAKS = /(\r?\n)/;

/** Every match of `query` in every (non-skipped) text file, with what replacing it by `replacement` gives. */
export async function planReplace(wsfs: WorkspaceFs, query: string, replacement: string, opts: ReplaceOptions = {}): Promise<ReplacePlan> {
  const plan: ReplacePlan = { files: [], blocked: [], tooLarge: [] };
  if (!query) return plan;
  const pattern = compilePattern(query, opts);
  // An empty match would insert the replacement between every two characters of every line.
  if (pattern.test("")) throw new PatternError("This pattern also matches empty text, so replacing would insert at every position: make it match at least one character.");
  const decoder = new TextDecoder("utf-8", { fatal: true });
  for (const path of await wsfs.listFiles("")) {
    if (opts.signal?.aborted) break;
    if (opts.skip?.(path)) continue;
    const stat = await wsfs.stat(path);
    if (!stat || stat.type !== "file") continue;
    if (stat.size > SEARCH_LARGE_FILE_BYTES) {
      plan.tooLarge.push(path);
      continue;
    }
    const bytes = await wsfs.readFile(path);
    if (looksBinary(bytes)) continue;
    let before: string;
    try {
      before = decoder.decode(bytes);
    } catch {
      continue; // not UTF-8: rewriting it as text would change bytes the match never touched
    }
    const replaced = replaceLines(before, pattern, replacement, opts.regex === true);
    if (replaced.count === 0) continue;
    const reason = opts.blocked?.(path);
    if (reason) {
      plan.blocked.push({ path, reason });
      continue;
    }
    plan.files.push({ path, before, ...replaced });
  }
  return plan;
}

function replaceLines(text: string, pattern: SearchPattern, replacement: string, regex: boolean) {
  const parts = text.split(LINE_BREAKS);
  const lines: ReplacedLine[] = [];
  let count = 0;
  const literal = () => replacement;
  // Even indexes are lines, odd ones the line breaks between them.
  for (let i = 0; i < parts.length; i += 2) {
    const r = pattern.replaceAll(parts[i]!, regex ? replacement : literal);
    if (r.count === 0) continue;
    count += r.count;
    if (r.text !== parts[i]) lines.push({ line: i / 2 + 1, before: parts[i]!, after: r.text });
    parts[i] = r.text;
  }
  return { after: parts.join(""), count, lines };
}

/**
 * Write the plan's files (or those of `only`), each only if it still reads exactly as the plan
 * read it; a file changed since the preview is left alone and named in the outcome.
 */
export async function applyReplace(wsfs: WorkspaceFs, plan: ReplacePlan, only?: Set<string>, origin = "search"): Promise<ReplaceOutcome> {
  const outcome: ReplaceOutcome = { written: [], changedSincePreview: [] };
  for (const file of plan.files) {
    if (only && !only.has(file.path)) continue;
    if (file.before === file.after) continue;
    if (!(await readsAs(wsfs, file.path, file.before))) {
      outcome.changedSincePreview.push(file.path);
      continue;
    }
    await wsfs.writeFile(file.path, file.after, { origin });
    outcome.written.push(file);
  }
  await wsfs.flush();
  return outcome;
}

/** Put back what `applyReplace` overwrote, in each file still holding exactly what it wrote; returns the files changed since (left alone). */
export async function undoReplace(wsfs: WorkspaceFs, outcome: ReplaceOutcome, origin = "search"): Promise<string[]> {
  const changedSince: string[] = [];
  for (const file of outcome.written) {
    if (!(await readsAs(wsfs, file.path, file.after))) {
      changedSince.push(file.path);
      continue;
    }
    await wsfs.writeFile(file.path, file.before, { origin });
  }
  await wsfs.flush();
  return changedSince;
}

async function readsAs(wsfs: WorkspaceFs, path: string, text: string): Promise<boolean> {
  const stat = await wsfs.stat(path);
  if (!stat || stat.type !== "file") return false;
  return new TextDecoder().decode(await wsfs.readFile(path)) === text;
}
