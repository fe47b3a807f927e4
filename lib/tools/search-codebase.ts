import { z } from "zod";
import { IgnoreRules } from "../git/ignore";
import { compilePathGlobs, type PathFilter } from "../search/path-glob";
import { compilePattern, type SearchPattern } from "../search/pattern";
import { scanFiles } from "../search/scan-files";
import { SEARCH_MAX_FILE_BYTES, type LineHit } from "../search/search-file";
import { defineTool, errorResult, type ToolResult } from "./define";
import { formatSize, fsErrorMessage, plural, resolvePath, shown } from "./util";

const description = `Search the text files of the workspace with a regular expression, line by line.

- query: the regex, e.g. "function\\s+greet" or "TODO|FIXME". Escape regex characters to search literally.
- Syntax: RE2 (JavaScript-like: classes, groups, alternation, \\b \\d \\w \\s, lookbehind). Backreferences and lookahead are not supported; matching is always linear-time.
- Case-insensitive unless the query contains an uppercase letter (or case_sensitive is set).
- path: limit the search to a directory or file.
- include: glob(s) on the path, e.g. "*.ts", "*.[jt]s", "src/**/*.{ts,tsx}"; a glob without "/" matches the file name at any depth; a glob starting with "!" excludes (e.g. ["*.ts", "!*.d.ts"]).
- Files ignored by .gitignore and binary files are skipped. Large text files are searched too (files over ${formatSize(SEARCH_MAX_FILE_BYTES)} are skipped and counted).
- Results are "path:line: text", grouped by file, at most max_results lines (default 200); the output says when it was cut: narrow the query or the path then.`;

const inputSchema = z.object({
  query: z.string().min(1).describe("Regular expression to search for (RE2 syntax)"),
  path: z.string().optional().describe("Directory or file to search in (default: the whole workspace)"),
  include: z
    .union([z.string(), z.array(z.string()).max(50)])
    .optional()
    .describe('Glob(s) the file path must match, e.g. "*.ts" or ["src/**/*.{ts,tsx}", "!**/*.test.ts"]'),
  case_sensitive: z.boolean().optional().describe("Force case-sensitive (true) or insensitive (false) matching"),
  max_results: z.number().int().min(1).max(2000).optional().describe("Maximum matching lines (default 200)"),
});

export type SearchCodebaseInput = z.infer<typeof inputSchema>;

const PREVIEW = 200;

export const searchCodebaseTool = defineTool<SearchCodebaseInput>({
  name: "search_codebase",
  description,
  inputSchema,
  effects: ["read"],
  approval: "read",
  async execute(input, ctx): Promise<ToolResult> {
    const caseSensitive = input.case_sensitive ?? /[A-Z]/.test(input.query.replace(/\\./g, ""));
    let pattern: SearchPattern;
    try {
      // lib/search's linear-time engine (the editor's find in files uses the same one).
      pattern = compilePattern(input.query, { regex: true, caseSensitive });
    } catch (err) {
      const msg = (err as Error).message;
      return errorResult(/not supported/.test(msg) ? msg : `${msg}. Fix the pattern (RE2 syntax) or escape special characters to search literally.`);
    }
    let include: PathFilter | null = null;
    try {
      if (input.include !== undefined) include = compilePathGlobs(input.include);
    } catch (err) {
      return errorResult((err as Error).message);
    }
    let root: string;
    try {
      root = resolvePath(ctx.wsfs, input.path ?? "");
    } catch (err) {
      return errorResult(fsErrorMessage(err, input.path ?? ""));
    }
    const st = await ctx.wsfs.stat(root).catch(() => null);
    if (!st) return errorResult(`${shown(root)} does not exist`);
    const max = input.max_results ?? ctx.limits.searchMaxResults;
    const rules = new IgnoreRules(ctx.repo);

    // Candidate files; ignored directories are skipped without descending into them.
    const files: string[] = [];
    const walk = async (dir: string): Promise<void> => {
      if (ctx.signal.aborted) return;
      await rules.prepare(dir === "" ? "x" : dir + "/x");
      const entries = await ctx.wsfs.readdir(dir).catch(() => []);
      const subdirs: string[] = [];
      for (const e of entries) {
        if (e.name.toLowerCase() === ".git") continue;
        const rel = dir === "" ? e.name : `${dir}/${e.name}`;
        if (rules.test(rel, e.type === "dir")) continue;
        if (e.type === "dir") subdirs.push(rel);
        else if (e.type === "file" && (!include || include(rel))) files.push(rel);
      }
      await Promise.all(subdirs.map(walk));
    };
    if (st.type === "dir") await walk(root);
    else files.push(root);
    files.sort();

    const perFile = new Map<string, LineHit[]>();
    let total = 0;
    let cut = false;
    const { searched, tooLarge } = await scanFiles(ctx.wsfs, files, pattern, {
      maxHitsPerFile: () => max + 1,
      previewChars: PREVIEW,
      signal: ctx.signal,
      onFile: ({ path, hits }) => {
        if (hits.length === 0) return;
        const room = max - total;
        if (hits.length > room) {
          if (room > 0) perFile.set(path, hits.slice(0, room));
          total = max;
          cut = true;
          return false;
        }
        perFile.set(path, hits);
        total += hits.length;
      },
    });

    const out: string[] = [];
    for (const [path, hits] of perFile) {
      out.push(path);
      for (const h of hits) out.push(`  ${h.line}: ${h.preview}`);
    }
    if (total === 0) {
      out.push(`No matches for /${input.query}/${caseSensitive ? "" : "i"} in ${plural(searched, "file")}${root ? ` under ${root}` : ""}.`);
    } else {
      out.push(`${plural(total, "match", "matches")} in ${plural(perFile.size, "file")} (${searched} searched).`);
    }
    if (tooLarge > 0) out.push(`[${plural(tooLarge, "file")} over ${formatSize(SEARCH_MAX_FILE_BYTES)} not searched: read parts of them with read_files and start_line/end_line.]`);
    if (cut) out.push(`[Results cut at ${max} matches: narrow the query, the path or the include glob to see the rest.]`);
    return {
      output: out.join("\n"),
      summary: total === 0 ? `No matches for ${input.query}` : `${plural(total, "match", "matches")} in ${plural(perFile.size, "file")}${cut ? " (cut)" : ""}`,
      data: { matches: total, files: perFile.size, searched, tooLarge, truncated: cut },
    };
  },
});
