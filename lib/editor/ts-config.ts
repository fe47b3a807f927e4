/**
 * The workspace's tsconfig.json / jsconfig.json, with what it extends, as compiler options for the
 * TypeScript language service in the editor. The enum values are TypeScript's own numbers (the ones Monaco's worker
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

/** One config file's own compilerOptions, normalised (paths made absolute from its directory), no defaults. */
type OwnOptions = { options: TsCompilerOptions; keys: Set<string>; pathsBase?: string };

function ownOptions(given: Record<string, unknown>, configPath: string, errors: string[]): OwnOptions {
  const dir = configPath.includes("/") ? configPath.slice(0, configPath.lastIndexOf("/")) : "";
  const options: TsCompilerOptions = {};
  const keys = new Set<string>();
  for (const [key, value] of Object.entries(given)) {
    if (IGNORED.has(key)) continue;
    keys.add(key);
    const table = ENUMS[key];
    if (table) {
      const n = typeof value === "string" ? table[value.toLowerCase()] : undefined;
      if (n === undefined) errors.push(`${configPath}: unknown ${key} ${JSON.stringify(value)}`);
      else options[key] = n;
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
  // `paths` without `baseUrl` are relative to the file that gives them (TypeScript tracks that
  // itself only when it parsed the file; here it is told).
  return { options, keys, pathsBase: "paths" in given && !("baseUrl" in given) ? workerFileName(dir) : undefined };
}

/** Later files win, key by key, as TypeScript merges an `extends` chain's compilerOptions. */
function mergeOwn(base: OwnOptions, over: OwnOptions): OwnOptions {
  return {
    options: { ...base.options, ...over.options },
    keys: new Set([...base.keys, ...over.keys]),
    pathsBase: over.keys.has("paths") ? over.pathsBase : over.keys.has("baseUrl") ? undefined : base.pathsBase,
  };
}

function finish(own: OwnOptions, isJsconfig: boolean, errorsFreeKeys: Set<string>): TsCompilerOptions {
  const options: TsCompilerOptions = { ...DEFAULT_COMPILER_OPTIONS, ...(isJsconfig ? { allowJs: true, checkJs: false } : {}) };
  // A config that names its module system but not its resolution gets TypeScript's own pairing.
  if (own.keys.has("module") && !own.keys.has("moduleResolution")) delete options.moduleResolution;
  // An enum value not understood leaves TypeScript's default for it, not ours.
  for (const k of own.keys) if (ENUMS[k] && !errorsFreeKeys.has(k)) delete options[k];
  Object.assign(options, own.options);
  if (options.paths && options.baseUrl === undefined && own.pathsBase) options.baseUrl = own.pathsBase;
  options.allowNonTsExtensions = true;
  return options;
}

type Parsed = { raw: Record<string, unknown> } | { error: string };

function parseConfig(text: string, configPath: string): Parsed {
  const parsed = parseJsonc(text);
  if (!parsed.ok) return { error: `${configPath}: ${parsed.error}` };
  const raw = parsed.value;
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return { error: `${configPath}: expected an object` };
  return { raw: raw as Record<string, unknown> };
}

function givenOptions(raw: Record<string, unknown>, configPath: string, errors: string[]): Record<string, unknown> {
  const given = raw.compilerOptions;
  if (given === undefined) return {};
  if (!given || typeof given !== "object" || Array.isArray(given)) {
    errors.push(`${configPath}: "compilerOptions" must be an object`);
    return {};
  }
  return given as Record<string, unknown>;
}

/**
 * Compiler options from the text of one config file at `configPath` (workspace-relative), its
 * `extends` not followed (see loadCompilerOptions). Unknown enum values are reported and left
 * out (TypeScript's default applies) rather than passed on.
 */
export function compilerOptionsFromConfig(text: string, configPath: string): ConfigResult {
  const errors: string[] = [];
  const isJsconfig = configPath.endsWith("jsconfig.json");
  const parsed = parseConfig(text, configPath);
  if ("error" in parsed) return { options: finish({ options: {}, keys: new Set() }, isJsconfig, new Set()), errors: [parsed.error] };
  if (parsed.raw.extends !== undefined) errors.push(`${configPath}: "extends" is not followed here; only this file's compilerOptions apply`);
  const own = ownOptions(givenOptions(parsed.raw, configPath, errors), configPath, errors);
  return { options: finish(own, isJsconfig, understood(own)), errors };
}

/** Enum keys whose value was understood (the others were reported). */
function understood(own: OwnOptions): Set<string> {
  return new Set([...own.keys].filter((k) => !ENUMS[k] || own.options[k] !== undefined));
}

const MAX_EXTENDS_DEPTH = 16;

/**
 * The config at `configPath` with its `extends` chain (a relative file, a package's config in
 * node_modules, or a list of them, as TypeScript 5 allows), each file's paths taken from its own
 * directory and later files winning key by key. `read` gives a workspace file's text or null.
 * `files` are every config file looked at (found or not), for whoever watches them for changes.
 */
export async function loadCompilerOptions(configPath: string, read: (path: string) => Promise<string | null>): Promise<ConfigResult & { files: string[] }> {
  const errors: string[] = [];
  const files: string[] = [];
  const load = async (path: string, chain: string[]): Promise<OwnOptions> => {
    const empty: OwnOptions = { options: {}, keys: new Set() };
    if (chain.includes(path)) {
      errors.push(`${chain[chain.length - 1]}: "extends" goes round in a circle (${[...chain, path].join(" → ")})`);
      return empty;
    }
    if (chain.length > MAX_EXTENDS_DEPTH) {
      errors.push(`${path}: "extends" is nested more than ${MAX_EXTENDS_DEPTH} deep`);
      return empty;
    }
    files.push(path); // watched even when missing: creating it changes the options
    const text = await read(path);
    if (text === null) {
      errors.push(`${chain[chain.length - 1] ?? path}: the config it extends, ${path}, was not found`);
      return empty;
    }
    const parsed = parseConfig(text, path);
    if ("error" in parsed) {
      errors.push(parsed.error);
      return empty;
    }
    let merged = empty;
    const ext = parsed.raw.extends;
    const bases = typeof ext === "string" ? [ext] : Array.isArray(ext) ? ext : ext === undefined ? [] : null;
    if (bases === null) errors.push(`${path}: "extends" must be a string or a list of strings`);
    for (const spec of bases ?? []) {
      if (typeof spec !== "string") continue;
      const target = await resolveExtends(path, spec, read);
      merged = mergeOwn(merged, await load(target, [...chain, path]));
    }
    return mergeOwn(merged, ownOptions(givenOptions(parsed.raw, path, errors), path, errors));
  };
  const own = await load(configPath, []);
  return { options: finish(own, configPath.endsWith("jsconfig.json"), understood(own)), errors, files };
}

/** Where `extends: spec` in `from` points: a path next to it, or a package in node_modules (looked up from its directory upwards, as Node does). */
async function resolveExtends(from: string, spec: string, read: (path: string) => Promise<string | null>): Promise<string> {
  const dir = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
  const withJson = (p: string) => (p.endsWith(".json") ? p : p + ".json");
  if (spec.startsWith("./") || spec.startsWith("../") || spec.startsWith("/")) return withJson(joinDir(spec.startsWith("/") ? "" : dir, spec));
  // A package: <pkg>/tsconfig.json when the name is only the package, else the named file.
  const isBare = spec.startsWith("@") ? spec.split("/").length === 2 : !spec.includes("/");
  const candidates = isBare ? [`${spec}/tsconfig.json`] : spec.endsWith(".json") ? [spec] : [`${spec}.json`, `${spec}/tsconfig.json`];
  for (let d = dir; ; d = d.includes("/") ? d.slice(0, d.lastIndexOf("/")) : "") {
    for (const c of candidates) {
      const p = joinDir(d, `node_modules/${c}`);
      if ((await read(p)) !== null) return p;
    }
    if (d === "") break;
  }
  return joinDir(dir, `node_modules/${candidates[0]}`);
}

