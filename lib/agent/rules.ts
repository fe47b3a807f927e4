/**
 * The workspace's rules files: which exist, in which order the model reads them, and which of
 * them reach the prompt.
 *
 * Found at the root: AGENTS.md, CLAUDE.md, .clinerules (a file, or a folder of .md files),
 * .cursorrules, .github/copilot-instructions.md and .tabula/rules/*.md; then, for the folder
 * being worked on (the open file's folder chain, outermost first), each folder's AGENTS.md and
 * CLAUDE.md. Later files are the more specific ones, so the model reads them last.
 *
 * A file reaches the prompt only when the workspace is trusted (rules are instructions the
 * workspace gives the agent: a cloned or imported one must not steer it before the user says
 * so), the user has not turned it off, its text is not the same as an earlier file's (CLAUDE.md
 * often repeats AGENTS.md), and it fits the caps.
 */
import type { WorkspaceFs } from "../fs/workspace-fs";
import type { RuleSource } from "./prompt";

export type RuleFile = {
  path: string;
  /** Bytes on disk. */
  size: number;
  text: string;
  /** The folder it applies to when it is a nested file ("src/app"); absent at the root. */
  scope?: string;
};

/** active: in the prompt · off: turned off by the user · untrusted: the workspace is not trusted ·
 * duplicate: same text as an earlier file · over-cap: past the total cap · empty: no text. */
export type RuleStatus = "active" | "off" | "untrusted" | "duplicate" | "over-cap" | "empty";

export type RuleEntry = { path: string; size: number; status: RuleStatus; scope?: string; note?: string };

export const MAX_RULE_CHARS = 32_000;
export const MAX_RULES_TOTAL = 64_000;

/** Root files read as one rules file each, in this order (then .clinerules/ and .tabula/rules/). */
const ROOT_FILES = ["AGENTS.md", "CLAUDE.md", ".clinerules", ".cursorrules", ".github/copilot-instructions.md"];
/** Folders whose .md files are rules (sorted by name). */
const RULE_FOLDERS = [".clinerules", ".tabula/rules"];
/** Read in every folder of the chain being worked on. */
const NESTED_FILES = ["AGENTS.md", "CLAUDE.md"];

async function readRule(wsfs: WorkspaceFs, path: string, scope?: string): Promise<RuleFile | undefined> {
  try {
    const st = await wsfs.stat(path);
    if (!st || st.type !== "file") return undefined;
    const text = await wsfs.readText(path);
    return scope ? { path, size: st.size, text, scope } : { path, size: st.size, text };
  } catch {
    return undefined; // unreadable (or hidden from the agent): not a rule
  }
}

async function mdFilesIn(wsfs: WorkspaceFs, dir: string): Promise<string[]> {
  try {
    const st = await wsfs.stat(dir);
    if (st?.type !== "dir") return [];
    const entries = await wsfs.readdir(dir);
    return entries
      .filter((e) => e.type === "file" && e.name.toLowerCase().endsWith(".md"))
      .map((e) => e.name)
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      .map((n) => `${dir}/${n}`);
  } catch {
    return [];
  }
}

/** The folders from the root's child down to the folder holding `path` ("src/a/b.ts" → src, src/a). */
export function folderChain(path: string | undefined): string[] {
  if (!path) return [];
  const parts = path.replace(/^\/+/, "").split("/").slice(0, -1).filter(Boolean);
  return parts.map((_, i) => parts.slice(0, i + 1).join("/"));
}

/** Every rules file there is for work on `activePath` (or at the root only), in reading order. */
export async function discoverRules(wsfs: WorkspaceFs, opts: { activePath?: string } = {}): Promise<RuleFile[]> {
  const out: RuleFile[] = [];
  const push = (f: RuleFile | undefined) => {
    if (f && !out.some((o) => o.path === f.path)) out.push(f);
  };
  for (const p of ROOT_FILES) push(await readRule(wsfs, p));
  for (const dir of RULE_FOLDERS) for (const p of await mdFilesIn(wsfs, dir)) push(await readRule(wsfs, p));
  for (const dir of folderChain(opts.activePath)) {
    for (const name of NESTED_FILES) push(await readRule(wsfs, `${dir}/${name}`, dir));
  }
  return out;
}

export type RuleChoices = {
  /** Paths the user turned off. */
  disabled?: ReadonlySet<string>;
  /** Whether the workspace is trusted (default true: a caller with no trust to check). */
  trusted?: boolean;
  maxRuleChars?: number;
  maxTotalChars?: number;
};

/** What of `files` reaches the prompt, and each file's status for the settings. */
export function selectRules(files: readonly RuleFile[], choices: RuleChoices = {}): { rules: RuleSource[]; entries: RuleEntry[] } {
  const maxRule = choices.maxRuleChars ?? MAX_RULE_CHARS;
  const maxTotal = choices.maxTotalChars ?? MAX_RULES_TOTAL;
  const trusted = choices.trusted ?? true;
  const rules: RuleSource[] = [];
  const entries: RuleEntry[] = [];
  const included = new Map<string, string>(); // trimmed text → path
  let total = 0;
  for (const f of files) {
    const entry: RuleEntry = f.scope ? { path: f.path, size: f.size, status: "active", scope: f.scope } : { path: f.path, size: f.size, status: "active" };
    entries.push(entry);
    const trimmed = f.text.trim();
    if (!trusted) {
      entry.status = "untrusted";
      entry.note = "Inactive until you trust this workspace.";
      continue;
    }
    if (choices.disabled?.has(f.path)) {
      entry.status = "off";
      continue;
    }
    if (!trimmed) {
      entry.status = "empty";
      continue;
    }
    const same = included.get(trimmed);
    if (same) {
      entry.status = "duplicate";
      entry.note = `Same text as ${same}: read once.`;
      continue;
    }
    let text = trimmed;
    if (text.length > maxRule) {
      text = text.slice(0, maxRule) + `\n[… ${f.path} cut at ${maxRule} characters]`;
      entry.note = `Cut at ${maxRule.toLocaleString("en-US")} characters.`;
    }
    if (total + text.length > maxTotal) {
      entry.status = "over-cap";
      entry.note = `Left out: the rules are capped at ${maxTotal.toLocaleString("en-US")} characters together.`;
      continue;
    }
    total += text.length;
    included.set(trimmed, f.path);
    rules.push({ source: f.scope ? `${f.path} (for work under ${f.scope}/)` : f.path, text });
  }
  return { rules, entries };
}

/** The rules that reach the prompt (discover, then select). */
export async function loadWorkspaceRules(wsfs: WorkspaceFs, opts: RuleChoices & { activePath?: string } = {}): Promise<RuleSource[]> {
  return selectRules(await discoverRules(wsfs, { activePath: opts.activePath }), opts).rules;
}
