/**
 * Which workspace files the editor's TypeScript service reads, and how much of node_modules.
 * Sources become editor models (so their problems are checked and Go to Definition can open
 * them); type declarations under node_modules are only read, within a size budget, so a large
 * dependency tree cannot exhaust the tab.
 */
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/i;

export const TS_LIMITS = {
  /** Workspace sources fed as models; past this the rest are left out (and said so). */
  maxSources: 3000,
  /** A single source larger than this is left out: the checker would stall on it. */
  maxSourceBytes: 1024 * 1024,
  /** Total bytes of node_modules declarations and package.json files read. */
  maxTypeBytes: 24 * 1024 * 1024,
  maxTypeFiles: 6000,
};

function inNodeModules(path: string): boolean {
  return path.startsWith("node_modules/") || path.includes("/node_modules/");
}

/** A workspace source file the TS/JS service checks (node_modules excluded). */
export function isTsSource(path: string): boolean {
  return SOURCE.test(path) && !inNodeModules(path) && !path.split("/").some((p) => p.toLowerCase() === ".git");
}

/** A file of node_modules the resolver needs: declarations, and package.json for "types"/"exports". */
export function isTypeFile(path: string): boolean {
  if (!inNodeModules(path)) return false;
  return /\.d\.(ts|mts|cts)$/i.test(path) || path.endsWith("/package.json");
}

export function isTsLanguage(path: string): "typescript" | "javascript" | undefined {
  if (!SOURCE.test(path)) return undefined;
  return /\.(ts|tsx|mts|cts)$/i.test(path) ? "typescript" : "javascript";
}

export interface TypeBudgetPlan {
  take: string[];
  skipped: number;
}

/**
 * The node_modules files to read, `@types` first (what most imports need), then the rest
 * shallowest first, until the file or byte budget runs out.
 */
export function planTypeFiles(files: { path: string; size: number }[], limits = TS_LIMITS): TypeBudgetPlan {
  const rank = (p: string) => (p.includes("node_modules/@types/") ? 0 : 1);
  const sorted = [...files].sort((a, b) => rank(a.path) - rank(b.path) || a.path.split("/").length - b.path.split("/").length || (a.path < b.path ? -1 : 1));
  const take: string[] = [];
  let bytes = 0;
  for (const f of sorted) {
    if (take.length >= limits.maxTypeFiles || bytes + f.size > limits.maxTypeBytes) continue;
    take.push(f.path);
    bytes += f.size;
  }
  return { take, skipped: files.length - take.length };
}
