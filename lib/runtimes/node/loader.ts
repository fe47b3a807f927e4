/**
 * The module system of a run: Node's resolution over the run's file tree (relative paths with
 * the extensions and index files Node and TypeScript users expect, `node_modules` lookup up the
 * directory chain, package.json "exports" — string, subpaths, `*` patterns, the import /
 * require / node / default conditions — and "main"), the format of each file (.mjs/.cjs, the
 * package's "type", and otherwise Node 22's detection of module syntax), and evaluation.
 *
 * Every module, ES or CommonJS, runs as a function (transform.ts turns ES syntax into the
 * CommonJS form): the five CommonJS names are its parameters, and the run's globals (process,
 * Buffer, console, timers…) are parameters of an enclosing function, so a module's own
 * `const process = require("process")` shadows them legally. An ES module's static
 * dependencies are evaluated before it, awaiting those with top-level await, as ES linking does.
 */
import type { MemFs } from "./memfs";
import { dirname, join } from "./builtins/path";
import { compileSource, DYNAMIC_IMPORT, IMPORT_META, looksLikeEsm, staticRequires } from "./transform";

export type Module = {
  id: string;
  filename: string;
  path: string;
  exports: unknown;
  loaded: boolean;
  parent: Module | null;
  children: Module[];
  paths: string[];
  require: Require;
  /** Set while an ES module with top-level await is running. */
  evaluation?: Promise<void>;
  format?: "esm" | "cjs" | "json";
};

export type Require = ((id: string) => unknown) & {
  resolve: ((id: string, opts?: { paths?: string[] }) => string) & { paths(id: string): string[] | null };
  cache: Record<string, Module>;
  main: Module | undefined;
  extensions: Record<string, unknown>;
};

export type LoaderOptions = {
  fs: MemFs;
  /** The built-in module of this name (without `node:`), or undefined. */
  builtin(name: string): unknown;
  isBuiltin(name: string): boolean;
  /** Evaluate a script in the global scope (indirect eval), returning its completion value. */
  evaluate(source: string): unknown;
  /** Names and values handed to every module as its globals. */
  globals: Record<string, unknown>;
};

const EXTENSIONS = [".js", ".json", ".mjs", ".cjs", ".ts", ".tsx", ".mts", ".cts", ".jsx", ".node"];
const INDEXES = EXTENSIONS.filter((e) => e !== ".node" && e !== ".json").map((e) => "index" + e);

type PackageJson = { name?: string; main?: string; type?: string; exports?: unknown; imports?: unknown };

export function moduleNotFound(request: string, parent: string | null, esm: boolean): Error {
  const err = esm
    ? new Error(`Cannot find ${/^[./]/.test(request) ? "module" : "package"} '${request}' imported from ${parent ?? "<eval>"}`)
    : new Error(`Cannot find module '${request}'${parent ? `\nRequire stack:\n- ${parent}` : ""}`);
  (err as Error & { code: string }).code = esm ? "ERR_MODULE_NOT_FOUND" : "MODULE_NOT_FOUND";
  return err;
}

export class Loader {
  readonly cache = new Map<string, Module>();
  private readonly pkgCache = new Map<string, PackageJson | null>();
  private readonly globalNames: string[];
  private readonly globalValues: unknown[];
  main: Module | undefined;

  constructor(private readonly opts: LoaderOptions) {
    this.globalNames = Object.keys(opts.globals);
    this.globalValues = Object.values(opts.globals);
  }

  // ---- resolution ----

  private isFile(p: string): boolean {
    return this.opts.fs.lookup(p)?.kind === "file";
  }
  private isDir(p: string): boolean {
    return this.opts.fs.lookup(p)?.kind === "dir";
  }

  private readPackage(dir: string): PackageJson | null {
    if (this.pkgCache.has(dir)) return this.pkgCache.get(dir)!;
    let pkg: PackageJson | null = null;
    const file = join(dir, "package.json");
    if (this.isFile(file)) {
      try {
        pkg = JSON.parse(new TextDecoder().decode(this.opts.fs.readFile(file))) as PackageJson;
      } catch (err) {
        throw Object.assign(new Error(`Invalid package config ${file}: ${(err as Error).message}`), { code: "ERR_INVALID_PACKAGE_CONFIG" });
      }
    }
    this.pkgCache.set(dir, pkg);
    return pkg;
  }

  /** The package.json that governs `file` (the nearest one up the tree). */
  private packageScope(file: string): PackageJson | null {
    for (let d = dirname(file); ; d = dirname(d)) {
      const pkg = this.readPackage(d);
      if (pkg) return pkg;
      if (d === "/" || d.endsWith("/node_modules")) return null;
    }
  }

  private loadAsFile(p: string): string | null {
    if (this.isFile(p)) return p;
    for (const ext of EXTENSIONS) if (this.isFile(p + ext)) return p + ext;
    // TypeScript's convention: `./util.js` names ./util.ts before it is compiled.
    const m = /\.(m|c)?js$/.exec(p);
    if (m) {
      const stem = p.slice(0, -m[0].length);
      for (const ext of m[1] ? [`.${m[1]}ts`] : [".ts", ".tsx"]) if (this.isFile(stem + ext)) return stem + ext;
    }
    return null;
  }

  private loadAsDirectory(p: string): string | null {
    if (!this.isDir(p)) return null;
    const pkg = this.readPackage(p);
    if (pkg?.main) {
      const main = join(p, pkg.main);
      const found = this.loadAsFile(main) ?? this.loadIndex(main);
      if (found) return found;
    }
    return this.loadIndex(p);
  }

  private loadIndex(p: string): string | null {
    for (const i of INDEXES) if (this.isFile(join(p, i))) return join(p, i);
    return null;
  }

  private exportsTarget(target: unknown, conditions: string[], star?: string): string | null {
    if (typeof target === "string") return star === undefined ? target : target.replace(/\*/g, star);
    if (Array.isArray(target)) {
      for (const t of target) {
        const r = this.exportsTarget(t, conditions, star);
        if (r) return r;
      }
      return null;
    }
    if (target && typeof target === "object") {
      for (const [k, v] of Object.entries(target)) {
        if (k === "default" || conditions.includes(k)) {
          const r = this.exportsTarget(v, conditions, star);
          if (r) return r;
        }
      }
    }
    return null;
  }

  private resolveExports(pkgDir: string, exportsField: unknown, subpath: string, conditions: string[], request: string): string {
    let map: Record<string, unknown>;
    if (typeof exportsField === "string" || Array.isArray(exportsField) || (exportsField && typeof exportsField === "object" && !Object.keys(exportsField).some((k) => k.startsWith(".")))) {
      map = { ".": exportsField };
    } else map = (exportsField ?? {}) as Record<string, unknown>;
    let target: string | null = null;
    if (subpath in map) target = this.exportsTarget(map[subpath], conditions);
    else {
      for (const key of Object.keys(map).sort((a, b) => b.length - a.length)) {
        const star = key.indexOf("*");
        if (star < 0) continue;
        const pre = key.slice(0, star);
        const post = key.slice(star + 1);
        if (subpath.startsWith(pre) && subpath.endsWith(post) && subpath.length >= key.length - 1) {
          target = this.exportsTarget(map[key], conditions, subpath.slice(pre.length, subpath.length - post.length));
          if (target) break;
        }
      }
    }
    if (!target) {
      throw Object.assign(new Error(`Package subpath '${subpath}' is not defined by "exports" in ${pkgDir}/package.json`), { code: "ERR_PACKAGE_PATH_NOT_EXPORTED", request });
    }
    const file = join(pkgDir, target);
    if (!this.isFile(file)) throw moduleNotFound(file, null, conditions.includes("import"));
    return file;
  }

  /** Absolute path of `request` from a module in `fromDir`, or `node:<name>` for a built-in. */
  resolve(request: string, fromDir: string, parent: string | null, esm: boolean): string {
    if (request.startsWith("node:")) {
      if (this.opts.isBuiltin(request.slice(5))) return request;
      throw Object.assign(new Error(`No such built-in module: ${request}`), { code: "ERR_UNKNOWN_BUILTIN_MODULE" });
    }
    if (this.opts.isBuiltin(request)) return `node:${request}`;
    if (request.startsWith("file://")) request = decodeURIComponent(new URL(request).pathname);
    if (request.startsWith("/") || request.startsWith("./") || request.startsWith("../") || request === "." || request === "..") {
      const p = join(request.startsWith("/") ? "/" : fromDir, request);
      const found = this.loadAsFile(p) ?? this.loadAsDirectory(p);
      if (found) return found;
      throw moduleNotFound(request, parent, esm);
    }
    const conditions = esm ? ["import", "node", "module-sync"] : ["require", "node", "module-sync"];
    if (request.startsWith("#")) {
      const scopeFile = parent ?? join(fromDir, "x");
      for (let d = dirname(scopeFile); ; d = dirname(d)) {
        const pkg = this.readPackage(d);
        if (pkg?.imports && typeof pkg.imports === "object") {
          const t = this.exportsTarget((pkg.imports as Record<string, unknown>)[request], conditions);
          if (t) return t.startsWith("./") ? join(d, t) : this.resolve(t, d, parent, esm);
        }
        if (pkg || d === "/") break;
      }
      throw moduleNotFound(request, parent, esm);
    }
    const parts = request.split("/");
    const name = request.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!;
    const rest = request.slice(name.length);
    for (let d = fromDir; ; d = dirname(d)) {
      if (!d.endsWith("/node_modules")) {
        const pkgDir = join(d, "node_modules", name);
        if (this.isDir(pkgDir)) {
          const pkg = this.readPackage(pkgDir);
          if (pkg?.exports !== undefined && pkg.exports !== null) return this.resolveExports(pkgDir, pkg.exports, "." + rest, conditions, request);
          const p = pkgDir + rest;
          const found = rest === "" ? this.loadAsDirectory(p) : (this.loadAsFile(p) ?? this.loadAsDirectory(p));
          if (found) return found;
        }
      }
      if (d === "/") break;
    }
    throw moduleNotFound(request, parent, esm);
  }

  // ---- formats and evaluation ----

  private formatOf(filename: string, source: string): "esm" | "cjs" | "json" {
    if (filename.endsWith(".json")) return "json";
    if (/\.m[jt]s$/.test(filename)) return "esm";
    if (/\.c[jt]s$/.test(filename)) return "cjs";
    const type = this.packageScope(filename)?.type;
    if (type === "module") return "esm";
    if (type === "commonjs") return "cjs";
    return looksLikeEsm(source, filename, (body, async) => this.syntaxError(body, async)) ? "esm" : "cjs";
  }

  private syntaxError(body: string, async = false): SyntaxError | null {
    try {
      this.opts.evaluate(`(${async ? "async " : ""}function () {${body}\n})`);
      return null;
    } catch (err) {
      return err instanceof SyntaxError ? err : null;
    }
  }

  /** Top-level await: the body is no function body, but is an async one. */
  private awaitsAtTopLevel(body: string): boolean {
    return this.syntaxError(body) !== null && this.syntaxError(body, true) === null;
  }

  private newModule(filename: string, parent: Module | null): Module {
    const mod: Module = {
      id: filename,
      filename,
      path: dirname(filename),
      exports: {},
      loaded: false,
      parent,
      children: [],
      paths: nodeModulePaths(dirname(filename)),
      require: undefined as unknown as Require,
    };
    mod.require = this.makeRequire(mod);
    parent?.children.push(mod);
    return mod;
  }

  makeRequire(mod: Module | null, dir = mod?.path ?? "/"): Require {
    const from = mod?.filename ?? null;
    const req = ((id: string) => {
      if (typeof id !== "string") throw Object.assign(new TypeError(`The "id" argument must be of type string. Received ${id === null ? "null" : typeof id}`), { code: "ERR_INVALID_ARG_TYPE" });
      const resolved = this.resolve(id, dir, from, false);
      return this.requireResolved(resolved, mod);
    }) as Require;
    const resolveFn = ((id: string, o?: { paths?: string[] }) => {
      const r = o?.paths?.length ? this.resolve(id, o.paths[0]!, from, false) : this.resolve(id, dir, from, false);
      return r.startsWith("node:") ? id : r;
    }) as Require["resolve"];
    resolveFn.paths = (id: string) => (this.opts.isBuiltin(id) ? null : nodeModulePaths(dir));
    req.resolve = resolveFn;
    const cache = this.cache;
    req.cache = new Proxy({} as Record<string, Module>, {
      get: (_t, k) => (typeof k === "string" ? cache.get(k) : undefined),
      has: (_t, k) => typeof k === "string" && cache.has(k),
      deleteProperty: (_t, k) => (typeof k === "string" ? cache.delete(k) || true : true),
      ownKeys: () => [...cache.keys()],
      getOwnPropertyDescriptor: (_t, k) => (typeof k === "string" && cache.has(k) ? { value: cache.get(k), enumerable: true, configurable: true } : undefined),
    });
    Object.defineProperty(req, "main", { get: () => this.main, enumerable: true });
    req.extensions = { ".js": null, ".json": null, ".node": null };
    return req;
  }

  private requireResolved(resolved: string, parent: Module | null): unknown {
    if (resolved.startsWith("node:")) return this.opts.builtin(resolved.slice(5));
    const cached = this.cache.get(resolved);
    if (cached) {
      if (cached.evaluation && !cached.loaded && cached.format === "esm") {
        throw Object.assign(new Error(`require() cannot be used on an ESM graph with top-level await. Use import() instead. To see where the top-level await comes from, use --experimental-print-required-tla.\n  From ${parent?.filename ?? "<eval>"}\n  Requiring ${resolved}`), {
          code: "ERR_REQUIRE_ASYNC_MODULE",
        });
      }
      return cached.exports;
    }
    const mod = this.newModule(resolved, parent);
    this.cache.set(resolved, mod);
    try {
      const r = this.evaluateModule(mod, false);
      if (r) {
        r.catch(() => undefined);
        throw Object.assign(new Error(`require() cannot be used on an ESM graph with top-level await. Use import() instead.\n  From ${parent?.filename ?? "<eval>"}\n  Requiring ${resolved}`), { code: "ERR_REQUIRE_ASYNC_MODULE" });
      }
    } catch (err) {
      this.cache.delete(resolved);
      throw err;
    }
    return mod.exports;
  }

  /** Evaluate a module; returns a promise only for an ES module that awaits at top level (or whose dependencies do). */
  private evaluateModule(mod: Module, allowAsync: boolean): Promise<void> | undefined {
    const filename = mod.filename;
    if (filename.endsWith(".node")) {
      throw Object.assign(new Error(`Cannot load native addon ${filename}: compiled addons (.node files) cannot run in the browser tab`), { code: "ERR_DLOPEN_FAILED" });
    }
    const source = new TextDecoder().decode(this.opts.fs.readFile(filename));
    const format = this.formatOf(filename, source);
    mod.format = format;
    if (format === "json") {
      try {
        mod.exports = JSON.parse(source.charCodeAt(0) === 0xfeff ? source.slice(1) : source);
      } catch (err) {
        throw Object.assign(new SyntaxError(`${filename}: ${(err as Error).message}`));
      }
      mod.loaded = true;
      return undefined;
    }
    const compiled = compileSource(source, filename, format);
    const meta = format === "esm" ? this.importMeta(mod) : undefined;
    const dynamicImport = (spec: string) => this.dynamicImport(String(spec), mod);

    const run = (async: boolean): unknown => {
      const fn = this.compile(compiled, filename, async);
      return fn.call(format === "esm" ? undefined : mod.exports, mod.exports, mod.require, mod, filename, mod.path, meta, dynamicImport);
    };

    if (format === "cjs") {
      run(false);
      mod.loaded = true;
      return undefined;
    }

    // An ES module: its static dependencies first, waiting for any that await.
    const pending: Promise<void>[] = [];
    for (const spec of staticRequires(compiled)) {
      let dep: string;
      try {
        dep = this.resolve(spec, mod.path, filename, true);
      } catch {
        continue; // the import itself will throw, in order, when the module runs
      }
      if (dep.startsWith("node:") || this.cache.has(dep)) {
        const c = this.cache.get(dep);
        if (c?.evaluation && !c.loaded) pending.push(c.evaluation);
        continue;
      }
      const child = this.newModule(dep, mod);
      this.cache.set(dep, child);
      try {
        const p = this.evaluateModule(child, true);
        if (p) pending.push(p);
      } catch (err) {
        this.cache.delete(dep);
        throw err;
      }
    }
    const body = (): Promise<void> | undefined => {
      const hasTla = this.awaitsAtTopLevel(compiled);
      if (!hasTla) {
        run(false);
        mod.loaded = true;
        return undefined;
      }
      if (!allowAsync && pending.length === 0) {
        // require() of a module that awaits: Node refuses it.
        mod.evaluation = Promise.resolve();
      }
      const p = (run(true) as Promise<void>).then(() => {
        mod.loaded = true;
      });
      return p;
    };
    if (pending.length === 0) {
      const p = body();
      if (p) mod.evaluation = p;
      return p;
    }
    const p = Promise.all(pending).then(() => body());
    mod.evaluation = p;
    return p;
  }

  private compile(body: string, filename: string, async: boolean): (...args: unknown[]) => unknown {
    const outer = this.globalNames.join(", ");
    const inner = ["exports", "require", "module", "__filename", "__dirname", IMPORT_META, DYNAMIC_IMPORT].join(", ");
    // One line of wrapper before the body, so line numbers in stack traces are the file's own.
    const src = `(function (${outer}) { return ${async ? "async " : ""}function (${inner}) {${body}\n}; })\n//# sourceURL=${filename}`;
    let make: (...g: unknown[]) => (...args: unknown[]) => unknown;
    try {
      make = this.opts.evaluate(src) as typeof make;
    } catch (err) {
      // V8 gives a syntax error in evaluated code no file: say which module it is in.
      if (err instanceof SyntaxError) Object.defineProperty(err, "tabulaFile", { value: filename });
      throw err;
    }
    return make(...this.globalValues);
  }

  private importMeta(mod: Module): Record<string, unknown> {
    return {
      url: `file://${encodeURI(mod.filename)}`,
      filename: mod.filename,
      dirname: mod.path,
      resolve: (spec: string) => {
        const r = this.resolve(spec, mod.path, mod.filename, true);
        return r.startsWith("node:") ? r : `file://${encodeURI(r)}`;
      },
    };
  }

  /** `import()` from a module (or from -e code when `mod` is null). */
  async dynamicImport(spec: string, mod: Module | null, dir = mod?.path ?? "/"): Promise<unknown> {
    const resolved = this.resolve(spec, dir, mod?.filename ?? null, true);
    if (resolved.startsWith("node:")) return namespaceOf(this.opts.builtin(resolved.slice(5)));
    let m = this.cache.get(resolved);
    if (!m) {
      m = this.newModule(resolved, mod);
      this.cache.set(resolved, m);
      try {
        const p = this.evaluateModule(m, true);
        if (p) await p;
      } catch (err) {
        this.cache.delete(resolved);
        throw err;
      }
    } else if (m.evaluation) await m.evaluation;
    return m.format === "esm" ? m.exports : namespaceOf(m.exports);
  }

  /** Run the program's entry file; resolves when its top-level code (and any top-level await) is done. */
  async runMain(path: string): Promise<void> {
    // As `node app` finds app.js: the entry is resolved like a require of its absolute path.
    let filename: string;
    try {
      filename = this.resolve(path, "/", null, false);
    } catch {
      throw Object.assign(moduleNotFound(path, null, false), { requireStack: [] });
    }
    const mod = this.newModule(filename, null);
    mod.id = ".";
    this.main = mod;
    this.cache.set(filename, mod);
    const p = this.evaluateModule(mod, true);
    if (p) await p;
  }

  /** Run `-e` code as Node does: a CommonJS module in cwd, or an ES module if it uses ES syntax. */
  async runEval(code: string, cwd: string, print: boolean): Promise<unknown> {
    const filename = join(cwd, "[eval]");
    const mod = this.newModule(filename, null);
    mod.id = "[eval]";
    mod.paths = nodeModulePaths(cwd);
    const esm = looksLikeEsm(code, "[eval].js", (b, async) => this.syntaxError(b, async));
    if (esm) {
      const virtual = `${filename}.mjs`;
      const body = compileSource(code, virtual, "esm");
      for (const spec of staticRequires(body)) {
        try {
          const dep = this.resolve(spec, cwd, "[eval1]", true);
          if (!dep.startsWith("node:")) await this.dynamicImport(dep, mod, cwd);
        } catch {
          // reported when the import runs
        }
      }
      const hasTla = this.awaitsAtTopLevel(body);
      const fn = this.compile(body, "[eval1]", hasTla);
      await fn.call(undefined, mod.exports, mod.require, mod, "[eval1]", cwd, { url: `file://${encodeURI(cwd)}/[eval1]`, filename: "[eval1]", dirname: cwd }, (s: string) => this.dynamicImport(String(s), mod, cwd));
      return undefined;
    }
    // Sloppy-mode script semantics with the CommonJS names in scope; the completion value is what -p prints.
    const body = compileSource(code, "[eval].js", "cjs");
    const names = ["exports", "require", "module", "__filename", "__dirname", DYNAMIC_IMPORT];
    const outer = this.globalNames.join(", ");
    const src = `(function (${outer}) { return function (${names.join(", ")}) { return eval(${JSON.stringify(body)}); }; })\n//# sourceURL=[eval]`;
    const make = this.opts.evaluate(src) as (...g: unknown[]) => (...args: unknown[]) => unknown;
    return make(...this.globalValues).call(globalThis, mod.exports, mod.require, mod, "[eval]", ".", (s: string) => this.dynamicImport(String(s), mod, cwd));
  }
}

/** What `import()` of a CommonJS module or a built-in gives: its exports as `default`, and their keys. */
function namespaceOf(exports: unknown): Record<string, unknown> {
  const ns: Record<string, unknown> = Object.create(null);
  if (exports && (typeof exports === "object" || typeof exports === "function")) {
    for (const k of Object.keys(exports)) ns[k] = (exports as Record<string, unknown>)[k];
  }
  ns.default = exports;
  Object.defineProperty(ns, Symbol.toStringTag, { value: "Module" });
  return ns;
}

export function nodeModulePaths(dir: string): string[] {
  const out: string[] = [];
  for (let d = dir; ; d = dirname(d)) {
    if (!d.endsWith("/node_modules")) out.push(join(d, "node_modules"));
    if (d === "/") break;
  }
  return out;
}
