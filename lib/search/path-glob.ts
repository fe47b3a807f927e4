/**
 * Path globs for the agent's tools, by picomatch (the matcher of micromatch, fast-glob, chokidar):
 * `*.[jt]s`, `src/**\/*.{ts,{tsx,jsx}}`, extglobs and `!`-negations all mean what they do in a shell.
 *
 * A pattern without "/" matches the file name at any depth ("*.ts" finds "src/a.ts"), as
 * ripgrep's --glob and .gitignore do; one with "/" matches the workspace-relative path.
 * Patterns starting with "!" exclude: a path is kept when it matches some include (or there is
 * none) and no exclude.
 */
import picomatch from "picomatch";

export type PathFilter = (path: string) => boolean;

export class GlobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GlobError";
  }
}

export function compilePathGlobs(patterns: string | readonly string[]): PathFilter {
  const list = (typeof patterns === "string" ? [patterns] : [...patterns]).map((p) => p.trim()).filter(Boolean);
  const include: PathFilter[] = [];
  const exclude: PathFilter[] = [];
  for (const raw of list) {
    const negated = raw.startsWith("!") && !raw.startsWith("!(");
    const glob = (negated ? raw.slice(1) : raw).replace(/^\.\//, "").replace(/^\/+/, "");
    if (!glob) throw new GlobError(`The glob ${JSON.stringify(raw)} names no path`);
    let matcher: PathFilter;
    try {
      // basename: a pattern without "/" is tried against the file name as well.
      matcher = picomatch(glob, { dot: true, basename: !glob.includes("/") });
    } catch (err) {
      throw new GlobError(`Invalid glob ${JSON.stringify(raw)}: ${(err as Error).message}`);
    }
    (negated ? exclude : include).push(matcher);
  }
  return (path) => (include.length === 0 || include.some((m) => m(path))) && !exclude.some((m) => m(path));
}

/**
 * The search view's two fields, as VS Code reads them: comma-separated globs to include and to
 * exclude. A term without glob characters names a folder or a file anywhere ("src" keeps
 * "src/a.ts" and "lib/src/b.ts"; "README.md" every README.md). Both empty: everything.
 */
export function searchFieldsFilter(include: string, exclude: string): PathFilter {
  const terms = (field: string) =>
    field
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean)
      .flatMap((t) => (/[*?[\]{}()!]/.test(t) ? [t] : [t.replace(/\/+$/, ""), `${t.replace(/\/+$/, "")}/**`, `**/${t.replace(/\/+$/, "")}/**`]));
  const inc = terms(include);
  const exc = terms(exclude);
  if (inc.length === 0 && exc.length === 0) return () => true;
  const keep = inc.length ? compilePathGlobs(inc) : () => true;
  const drop = exc.length ? compilePathGlobs(exc) : () => false;
  return (path) => keep(path) && !drop(path);
}
