/**
 * The workspace's tsconfig.json / jsconfig.json as compiler options for the TypeScript language
 * service in the editor. The enum values are TypeScript's own numbers (the ones Monaco's worker
 * passes through to `ts.createLanguageService`), so this stays free of Monaco.
 */
import { parseJsonc } from "./jsonc";

export type TsCompilerOptions = Record<string, unknown>;

/** Config files in the order they are honoured: a tsconfig wins over a jsconfig. */
export const CONFIG_FILES = ["tsconfig.json", "jsconfig.json"] as const;

const TARGETS: Record<string, number> = {
  es3: 0, es5: 1, es6: 2, es2015: 2, es2016: 3, es2017: 4, es2018: 5, es2019: 6, es2020: 7,
  es2021: 8, es2022: 9, es2023: 10, es2024: 11, esnext: 99, latest: 99,
};
const MODULES: Record<string, number> = {
  none: 0, commonjs: 1, amd: 2, umd: 3, system: 4, es6: 5, es2015: 5, es2020: 6, es2022: 7,
  esnext: 99, node16: 100, node18: 101, node20: 102, nodenext: 199, preserve: 200,
};
const RESOLUTIONS: Record<string, number> = { classic: 1, node: 2, node10: 2, nodejs: 2, node16: 3, nodenext: 99, bundler: 100 };
const JSX: Record<string, number> = { none: 0, preserve: 1, react: 2, "react-native": 3, "react-jsx": 4, "react-jsxdev": 5 };
const ENUMS: Record<string, Record<string, number>> = { target: TARGETS, module: MODULES, moduleResolution: RESOLUTIONS, jsx: JSX };

/** Options whose values are paths relative to the config file. */
const PATH_OPTIONS = ["baseUrl", "rootDir", "outDir", "declarationDir", "outFile", "out"];
const PATH_LIST_OPTIONS = ["typeRoots", "rootDirs"];
/** Build-mode options the editor's single in-memory program has no use for and that make it complain. */
const IGNORED = new Set(["composite", "incremental", "tsBuildInfoFile", "plugins", "build"]);

/**
 * What the editor uses when the workspace has no config: modern ES modules resolved the way
 * bundlers do (extensionless relative imports, package.json "exports"), JS checked lightly.
 * `allowNonTsExtensions` is Monaco's own default and must stay, or models it names oddly vanish.
 */
export const DEFAULT_COMPILER_OPTIONS: TsCompilerOptions = {
  target: 99,
  module: 99,
  moduleResolution: 100,
  allowJs: true,
  esModuleInterop: true,
  allowSyntheticDefaultImports: true,
  jsx: 1,
  allowNonTsExtensions: true,
};

export interface ConfigResult {
  options: TsCompilerOptions;
  /** Problems with the config itself (unparsable, a value not understood), shown to the user. */
  errors: string[];
}

/** A workspace path as the file name the TypeScript worker knows it by. */
export function workerFileName(path: string): string {
  return "file:///" + path.replace(/^\/+/, "");
}

function joinDir(dir: string, rel: string): string {
  const parts = (dir ? dir.split("/") : []).concat(rel.split("/"));
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === "..") out.pop();
    else out.push(p);
  }
  return out.join("/");
}

/**
 * Compiler options from the text of a config file at `configPath` (workspace-relative). Unknown
 * enum values are reported and left out (TypeScript's default applies) rather than passed on.
 */
export function compilerOptionsFromConfig(text: string, configPath: string): ConfigResult {
  const errors: string[] = [];
  const isJsconfig = configPath.endsWith("jsconfig.json");
  const base: TsCompilerOptions = { ...DEFAULT_COMPILER_OPTIONS, ...(isJsconfig ? { allowJs: true, checkJs: false } : {}) };
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { options: base, errors: [`${configPath}: ${parsed.error}`] };
  const raw = parsed.value;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { options: base, errors: [`${configPath}: expected an object`] };
  const given = (raw as { compilerOptions?: unknown }).compilerOptions;
  if ((raw as { extends?: unknown }).extends !== undefined) errors.push(`${configPath}: "extends" is not followed by the editor; only this file's compilerOptions apply`);
  if (given === undefined) return { options: base, errors };
  if (!given || typeof given !== "object" || Array.isArray(given)) return { options: base, errors: [...errors, `${configPath}: "compilerOptions" must be an object`] };

  const dir = configPath.includes("/") ? configPath.slice(0, configPath.lastIndexOf("/")) : "";
  const options: TsCompilerOptions = { ...base };
  // A config that names its module system but not its resolution gets TypeScript's own pairing.
  if ("module" in given && !("moduleResolution" in given)) delete options.moduleResolution;
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (IGNORED.has(key)) continue;
    const table = ENUMS[key];
    if (table) {
      const n = typeof value === "string" ? table[value.toLowerCase()] : undefined;
      if (n === undefined) {
        errors.push(`${configPath}: unknown ${key} ${JSON.stringify(value)}`);
        delete options[key];
      } else options[key] = n;
    } else if (key === "lib" && Array.isArray(value)) {
      options.lib = value.filter((v): v is string => typeof v === "string").map((v) => `lib.${v.toLowerCase()}.d.ts`);
    } else if (PATH_OPTIONS.includes(key) && typeof value === "string") {
      options[key] = workerFileName(joinDir(dir, value));
    } else if (PATH_LIST_OPTIONS.includes(key) && Array.isArray(value)) {
      options[key] = value.filter((v): v is string => typeof v === "string").map((v) => workerFileName(joinDir(dir, v)));
    } else {
      options[key] = value;
    }
  }
  // `paths` without `baseUrl` are relative to the config file (TypeScript tracks that itself
  // only when it parsed the file; here it is told).
  if (options.paths && options.baseUrl === undefined) options.baseUrl = workerFileName(dir);
  options.allowNonTsExtensions = true;
  return { options, errors };
}
