/**
 * Source text → the function body the loader evaluates. TypeScript and JSX are stripped or
 * compiled by sucrase (which keeps line numbers, so stack traces point at the right lines);
 * an ES module is turned into the CommonJS form the loader runs (sucrase's "imports"
 * transform: live bindings through property reads, `export *` as getters), with `import.meta`
 * and `import()` routed to the loader, since neither exists inside an evaluated function.
 */
import { transform } from "sucrase";

export type SourceKind = "js" | "ts" | "jsx" | "tsx";

export function sourceKind(filename: string): SourceKind {
  if (/\.(ts|mts|cts)$/.test(filename)) return "ts";
  if (/\.tsx$/.test(filename)) return "tsx";
  if (/\.jsx$/.test(filename)) return "jsx";
  return "js";
}

export const IMPORT_META = "__tabula_import_meta";
export const DYNAMIC_IMPORT = "__tabula_import";

/** Compile `source` for the given module format. Throws sucrase's SyntaxError on bad input. */
export function compileSource(source: string, filename: string, format: "esm" | "cjs"): string {
  const kind = sourceKind(filename);
  const transforms: ("typescript" | "jsx" | "imports")[] = [];
  if (kind === "ts" || kind === "tsx") transforms.push("typescript");
  if (kind === "jsx" || kind === "tsx") transforms.push("jsx");
  if (format === "esm") transforms.push("imports");
  let code = source.startsWith("#!") ? "//" + source.slice(2) : source;
  if (transforms.length > 0) {
    code = transform(code, {
      transforms,
      filePath: filename,
      production: true,
      jsxRuntime: "classic",
      disableESTransforms: true,
      keepUnusedImports: false,
      preserveDynamicImport: false,
    }).code;
  }
  if (format === "esm") {
    code = code
      .replace(/\bimport\s*\.\s*meta\b/g, IMPORT_META)
      .replace(/Promise\.resolve\(\)\.then\(\(\) => _interopRequireWildcard\(require\(/g, `${DYNAMIC_IMPORT}(((`);
  } else {
    code = code.replace(/(?<![\w$.])import\s*\(/g, `${DYNAMIC_IMPORT}(`);
  }
  return code;
}

/** Does `source` use ES module syntax? Asked only of files whose format nothing declares. */
export function looksLikeEsm(source: string, filename: string, compiles: (body: string, async?: boolean) => SyntaxError | null): boolean {
  const body = compileSource(source, filename, "cjs");
  const err = compiles(body);
  if (!err) return false;
  if (/import statement|Unexpected token 'export'|import\.meta|Unexpected reserved word/.test(err.message)) return true;
  // Top-level await: not a CommonJS body, but fine as an async one.
  return compiles(body, true) === null;
}

/** Static import sources of a compiled ES module (to evaluate its dependencies first). */
export function staticRequires(compiled: string): string[] {
  const out: string[] = [];
  const re = /(?<![\w$.])require\((['"])((?:\\.|(?!\1).)*)\1\)/g;
  for (let m = re.exec(compiled); m; m = re.exec(compiled)) out.push(m[2]!);
  return out;
}
