/**
 * `npm install` for the tab: from package.json (and package-lock.json when it still matches it)
 * to node_modules in the workspace, through the workspace fs (so the file tree and the journal
 * see it; node_modules is ignored by git, so checkpoints skip it).
 *
 *   plan     the lockfile's packages when its root entry matches package.json's dependencies,
 *            else a fresh resolution (./resolve.ts); `npm install <pkg>` adds to package.json first
 *   fetch    every tarball, checked against its published integrity, unpacked in memory with
 *            limits (./tar.ts) — all before the first write, so a failure leaves node_modules as it was
 *   write    packages whose installed version differs (or that are missing) are replaced, those no
 *            longer planned are removed; then package.json, package-lock.json (v3) and, if it
 *            does not ignore node_modules yet, .gitignore
 *
 * Lifecycle scripts (install, postinstall) are not run: there is no process to run them in, and
 * a package's scripts are code the user has not looked at. Bins are not linked: the shell's npm
 * and npx find them in each package.json (../runtimes/node/npm.ts).
 */
import type { WorkspaceFs } from "../fs/workspace-fs";
import { Registry, RegistryError, type RegistryAccess } from "./registry";
import { pickVersion, resolveTree, type PlannedPackage, type RootDependencies } from "./resolve";
import { DEFAULT_TAR_LIMITS, readPackageTarball, type TarFile, type TarLimits } from "./tar";

export type InstallRequest = {
  wsfs: WorkspaceFs;
  /** Workspace-relative folder holding package.json ("" for the root). */
  root: string;
  access: RegistryAccess;
  /** `npm install <specs>`: add these to dependencies (or devDependencies) first. */
  add?: { specs: string[]; dev: boolean };
  /** `npm uninstall <names>`: take these out of package.json first. */
  remove?: string[];
  /** `npm update`: resolve again, whatever the lockfile says. */
  fresh?: boolean;
  /** `npm ci`: install exactly the lockfile; fail if it is missing or does not match package.json. */
  frozen?: boolean;
  /** Journal origin of the writes. */
  origin?: string;
  log?: (line: string) => void;
  signal?: AbortSignal;
  limits?: TarLimits;
  /** Tarballs fetched at once. */
  concurrency?: number;
};

export type InstallOutcome = { added: number; changed: number; removed: number; unchanged: number; packages: number; fromLock: boolean; ms: number };

type PackageJson = { name?: string; version?: string; dependencies?: Record<string, string>; devDependencies?: Record<string, string>; [k: string]: unknown };

type LockEntry = { version?: string; resolved?: string; integrity?: string; dev?: boolean; dependencies?: Record<string, string>; bin?: unknown; link?: boolean };
type Lockfile = { name?: string; version?: string; lockfileVersion?: number; requires?: boolean; packages?: Record<string, LockEntry & { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }> };

export class InstallError extends Error {}

const join = (root: string, p: string) => (root ? `${root}/${p}` : p);

export async function installPackages(req: InstallRequest): Promise<InstallOutcome> {
  const started = Date.now();
  const log = req.log ?? (() => undefined);
  const { wsfs, root } = req;
  const origin = req.origin ?? "npm";
  const registry = new Registry(req.access, req.signal);
  const limits = req.limits ?? DEFAULT_TAR_LIMITS;

  const pkgPath = join(root, "package.json");
  let pkg: PackageJson;
  if (await wsfs.exists(pkgPath)) {
    try {
      pkg = JSON.parse(await wsfs.readText(pkgPath)) as PackageJson;
    } catch (e) {
      throw new InstallError(`${pkgPath} is not valid JSON: ${(e as Error).message}`);
    }
  } else if (req.add?.specs.length) pkg = { name: (root.split("/").pop() || "workspace").toLowerCase().replace(/[^a-z0-9._-]/g, "-"), version: "1.0.0" };
  else throw new InstallError(`no package.json in ${root || "the workspace root"}: nothing to install`);

  let pkgChanged = false;
  for (const spec of req.add?.specs ?? []) {
    const { name, range } = parseSpec(spec);
    const v = await pickVersion(registry, name, range);
    const saved = range && /^[~^]?\d/.test(range) ? range : `^${v.version}`;
    const field = req.add!.dev ? "devDependencies" : "dependencies";
    const other = req.add!.dev ? "dependencies" : "devDependencies";
    pkg[field] = sortKeys({ ...(pkg[field] ?? {}), [name]: saved });
    if (pkg[other]?.[name]) {
      const rest = { ...pkg[other] };
      delete rest[name];
      pkg[other] = rest;
    }
    pkgChanged = true;
  }
  for (const name of req.remove ?? []) {
    for (const field of ["dependencies", "devDependencies"] as const) {
      if (pkg[field]?.[name] === undefined) continue;
      const rest = { ...pkg[field] };
      delete rest[name];
      pkg[field] = rest;
      pkgChanged = true;
    }
  }
  const wanted: RootDependencies = { dependencies: { ...(pkg.dependencies ?? {}) }, devDependencies: { ...(pkg.devDependencies ?? {}) } };

  // The plan: the lockfile when it was written for these dependencies, else a resolution.
  const lockPath = join(root, "package-lock.json");
  const oldLock = await readLock(wsfs, lockPath);
  let plan = oldLock && !req.fresh && lockMatches(oldLock, wanted) ? planFromLock(oldLock) : undefined;
  if (req.frozen && !plan) {
    throw new InstallError(
      oldLock
        ? "npm ci can only install when package.json and package-lock.json are in sync: run npm install to update the lockfile"
        : "npm ci needs a package-lock.json (lockfileVersion 2 or 3): run npm install first",
    );
  }
  const fromLock = !!plan;
  if (plan) log(`npm: installing ${plan.length} package${plan.length === 1 ? "" : "s"} from package-lock.json`);
  else {
    log(`npm: resolving ${Object.keys(wanted.dependencies).length + Object.keys(wanted.devDependencies).length} dependencies from ${registry.url}`);
    plan = await resolveTree(registry, wanted, log);
  }

  // What is installed now, by path: only what differs is fetched and written.
  const installed = new Map<string, string>();
  for (const p of plan) {
    const v = await installedVersion(wsfs, join(root, p.path));
    if (v) installed.set(p.path, v);
  }
  const toFetch = plan.filter((p) => installed.get(p.path) !== p.version);
  const unpacked = new Map<string, TarFile[]>();
  let total = 0;
  let done = 0;
  const queue = [...toFetch];
  const worker = async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      if (req.signal?.aborted) throw new InstallError("npm install was stopped; nothing was changed");
      const bytes = await registry.tarball({ name: p.name, version: p.version, dist: { tarball: p.resolved, integrity: p.integrity, shasum: p.shasum } });
      const files = readPackageTarball(bytes, { maxBytes: limits.maxBytes - total, maxFiles: limits.maxFiles });
      total += files.reduce((n, f) => n + f.data.length, 0);
      unpacked.set(p.path, files);
      done++;
      if (done % 10 === 0 || done === toFetch.length) log(`npm: fetched ${done}/${toFetch.length}`);
    }
  };
  await Promise.all(Array.from({ length: Math.min(req.concurrency ?? 6, Math.max(1, toFetch.length)) }, worker));

  // Everything is here and checked: now the writes.
  const planned = new Set(plan.map((p) => p.path));
  let removed = 0;
  for (const old of Object.keys(oldLock?.packages ?? {})) {
    if (!old.startsWith("node_modules/") || planned.has(old)) continue;
    if (await wsfs.exists(join(root, old))) {
      await wsfs.remove(join(root, old), { origin });
      removed++;
    }
  }
  let added = 0;
  let changed = 0;
  for (const p of toFetch) {
    const dir = join(root, p.path);
    if (await wsfs.exists(dir)) {
      await removeExceptNested(wsfs, dir, origin);
      changed++;
    } else added++;
    for (const f of unpacked.get(p.path)!) await wsfs.writeFile(`${dir}/${f.path}`, f.data, f.executable ? { origin, mode: 0o755 } : { origin });
  }
  if (pkgChanged) await wsfs.writeFile(pkgPath, JSON.stringify(pkg, null, 2) + "\n", { origin });
  await wsfs.writeFile(lockPath, JSON.stringify(lockOf(pkg, plan), null, 2) + "\n", { origin });
  if (await ensureIgnored(wsfs, origin)) log("npm: added node_modules/ to .gitignore (installed packages stay out of git and checkpoints)");
  const outcome: InstallOutcome = { added, changed, removed, unchanged: plan.length - toFetch.length, packages: plan.length, fromLock, ms: Date.now() - started };
  log(summaryLine(outcome));
  return outcome;
}

export function summaryLine(o: InstallOutcome): string {
  const parts: string[] = [];
  if (o.added) parts.push(`added ${o.added} package${o.added === 1 ? "" : "s"}`);
  if (o.changed) parts.push(`changed ${o.changed}`);
  if (o.removed) parts.push(`removed ${o.removed}`);
  if (parts.length === 0) parts.push("up to date");
  return `\n${parts.join(", ")}, and audited ${o.packages + 1} package${o.packages === 0 ? "" : "s"} in ${(o.ms / 1000).toFixed(1)}s\n`;
}

/** "left-pad", "left-pad@^1.3", "@scope/pkg@latest" → name and range ("" for none). */
export function parseSpec(spec: string): { name: string; range: string } {
  const at = spec.indexOf("@", spec.startsWith("@") ? 1 : 0);
  if (at === -1) return { name: spec, range: "" };
  return { name: spec.slice(0, at), range: spec.slice(at + 1) };
}

function sortKeys(o: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}

async function readLock(wsfs: WorkspaceFs, path: string): Promise<Lockfile | undefined> {
  if (!(await wsfs.exists(path))) return undefined;
  try {
    const lock = JSON.parse(await wsfs.readText(path)) as Lockfile;
    return lock && typeof lock === "object" && (lock.lockfileVersion ?? 0) >= 2 && lock.packages ? lock : undefined;
  } catch {
    return undefined; // a damaged lockfile is resolved again and rewritten
  }
}

function sameRecord(a: Record<string, string> = {}, b: Record<string, string> = {}): boolean {
  const ka = Object.keys(a);
  return ka.length === Object.keys(b).length && ka.every((k) => a[k] === b[k]);
}

function lockMatches(lock: Lockfile, wanted: RootDependencies): boolean {
  const rootEntry = lock.packages?.[""];
  return !!rootEntry && sameRecord(rootEntry.dependencies, wanted.dependencies) && sameRecord(rootEntry.devDependencies, wanted.devDependencies);
}

function planFromLock(lock: Lockfile): PlannedPackage[] | undefined {
  const out: PlannedPackage[] = [];
  for (const [path, e] of Object.entries(lock.packages ?? {})) {
    if (!path.startsWith("node_modules/")) continue;
    if (e.link) return undefined; // workspaces and links: resolve again
    if (!e.version || !e.resolved) return undefined;
    const name = path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length);
    const p: PlannedPackage = { path, name, version: e.version, resolved: e.resolved, dependencies: { ...(e.dependencies ?? {}) }, dev: !!e.dev };
    if (e.integrity) p.integrity = e.integrity;
    out.push(p);
  }
  return out;
}

function lockOf(pkg: PackageJson, plan: readonly PlannedPackage[]): Lockfile {
  const rootEntry: Record<string, unknown> = { name: pkg.name, version: pkg.version };
  if (pkg.dependencies && Object.keys(pkg.dependencies).length) rootEntry.dependencies = pkg.dependencies;
  if (pkg.devDependencies && Object.keys(pkg.devDependencies).length) rootEntry.devDependencies = pkg.devDependencies;
  const packages: Record<string, unknown> = { "": rootEntry };
  for (const p of plan) {
    const e: Record<string, unknown> = { version: p.version, resolved: p.resolved };
    if (p.integrity) e.integrity = p.integrity;
    if (p.dev) e.dev = true;
    if (Object.keys(p.dependencies).length) e.dependencies = p.dependencies;
    if (p.bin) e.bin = typeof p.bin === "string" ? { [p.name.split("/").pop()!]: p.bin } : p.bin;
    packages[p.path] = e;
  }
  return { name: pkg.name, version: pkg.version, lockfileVersion: 3, requires: true, packages: packages as Lockfile["packages"] };
}

async function installedVersion(wsfs: WorkspaceFs, dir: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await wsfs.readText(`${dir}/package.json`)) as { version?: string }).version;
  } catch {
    return undefined;
  }
}

/** Empty a package's folder for its new version, keeping its own node_modules (nested packages are planned on their own). */
async function removeExceptNested(wsfs: WorkspaceFs, dir: string, origin: string): Promise<void> {
  for (const e of await wsfs.readdir(dir)) {
    if (e.name === "node_modules") continue;
    await wsfs.remove(`${dir}/${e.name}`, { origin });
  }
}

/** Make sure git (and so checkpoints) ignores node_modules; true when .gitignore was changed. */
async function ensureIgnored(wsfs: WorkspaceFs, origin: string): Promise<boolean> {
  const path = ".gitignore";
  const text = (await wsfs.exists(path)) ? await wsfs.readText(path) : "";
  const lines = text.split(/\r?\n/).map((l) => l.trim());
  if (lines.some((l) => /^\/?(\*\*\/)?node_modules\/?$/.test(l))) return false;
  await wsfs.writeFile(path, `${text}${text && !text.endsWith("\n") ? "\n" : ""}node_modules/\n`, { origin });
  return true;
}

export { RegistryError };
