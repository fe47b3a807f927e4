/**
 * Which package versions go where in node_modules. Like npm: every dependency range is
 * satisfied by the newest published version that matches it (semver), each package is hoisted to
 * the top node_modules unless another version of it is already there, in which case it is nested
 * under the package that needs it; a dependency already visible from where it is needed (Node's
 * lookup: the nearest node_modules up the tree) and matching is reused. Root dependencies are
 * placed first, breadth first, so the top level holds what the project asked for.
 *
 * Left out, each with a reason: peer dependencies are not installed for you (npm 7+ does; list
 * them in package.json), optional dependencies that fail to resolve or name an os/cpu are skipped
 * (native binaries cannot run in the tab), and specs that are not registry ranges or tags
 * (git URLs, file:, http tarballs, workspace:) are refused by name.
 */
import semver from "semver";
import type { PackageVersion, Registry } from "./registry";
import { RegistryError } from "./registry";

export type PlannedPackage = {
  /** "node_modules/a", or "node_modules/b/node_modules/a" when nested. */
  path: string;
  name: string;
  version: string;
  resolved: string;
  integrity?: string;
  shasum?: string;
  dependencies: Record<string, string>;
  bin?: string | Record<string, string>;
  /** Reached only through devDependencies. */
  dev: boolean;
};

export type RootDependencies = { dependencies: Record<string, string>; devDependencies: Record<string, string> };

/** The version of `name` a spec picks: a dist-tag, an exact version, or the newest in a range. */
export async function pickVersion(registry: Registry, name: string, spec: string): Promise<PackageVersion> {
  const range = spec.trim() === "" ? "latest" : spec.trim();
  if (/^(git\+|git:|github:|file:|link:|workspace:|https?:|npm:)/.test(range) || range.includes("/")) {
    throw new RegistryError(`"${name}@${range}": only registry versions, ranges and tags can be installed in the tab (not git, file, link, workspace or URL specs)`);
  }
  const doc = await registry.packument(name);
  const tagged = doc["dist-tags"]?.[range];
  if (tagged && doc.versions[tagged]) return doc.versions[tagged]!;
  if (!semver.validRange(range)) throw new RegistryError(`"${name}@${range}" is neither a version range nor a tag of ${name} (tags: ${Object.keys(doc["dist-tags"] ?? {}).join(", ") || "none"})`);
  const latest = doc["dist-tags"]?.latest;
  // npm prefers the latest tag when it satisfies the range, then the newest non-prerelease.
  if (latest && doc.versions[latest] && semver.satisfies(latest, range)) return doc.versions[latest]!;
  const best = semver.maxSatisfying(Object.keys(doc.versions), range);
  if (!best) throw new RegistryError(`No matching version found for ${name}@${range} (newest: ${latest ?? "none"})`);
  return doc.versions[best]!;
}

type Want = { from: string; name: string; range: string; dev: boolean; optional: boolean };

/** Plan node_modules for the root's dependencies. */
export async function resolveTree(registry: Registry, root: RootDependencies, log: (line: string) => void = () => undefined): Promise<PlannedPackage[]> {
  const placed = new Map<string, PlannedPackage>();
  const queue: Want[] = [
    ...Object.entries(root.dependencies).map(([name, range]) => ({ from: "", name, range, dev: false, optional: false })),
    ...Object.entries(root.devDependencies)
      .filter(([name]) => !(name in root.dependencies))
      .map(([name, range]) => ({ from: "", name, range, dev: true, optional: false })),
  ];
  while (queue.length) {
    // One level at a time, its packuments fetched together.
    const level = queue.splice(0);
    const picked = await Promise.all(
      level.map((w) =>
        pickVersion(registry, w.name, w.range).then(
          (v) => ({ w, v }),
          (e: unknown) => {
            if (w.optional) {
              log(`npm warn optional ${w.name}@${w.range} skipped: ${(e as Error).message}`);
              return undefined;
            }
            throw e;
          },
        ),
      ),
    );
    for (const p of picked) {
      if (!p) continue;
      const { w, v } = p;
      const seen = visible(placed, w.from, w.name);
      if (seen && semver.satisfies(seen.version, w.range.trim() === "" ? "*" : w.range, { includePrerelease: true })) {
        if (!w.dev) markProd(placed, seen);
        continue;
      }
      if (w.optional && (v.os?.length || v.cpu?.length)) {
        log(`npm warn optional ${w.name}@${v.version} skipped: it is built for a particular os/cpu`);
        continue;
      }
      const top = `node_modules/${w.name}`;
      const path = !placed.has(top) || !w.from ? top : `${w.from}/node_modules/${w.name}`;
      if (placed.has(path)) continue; // a sibling asked for it this same level: the first one stays
      const pkg: PlannedPackage = {
        path,
        name: w.name,
        version: v.version,
        resolved: v.dist.tarball,
        dependencies: { ...(v.dependencies ?? {}) },
        dev: w.dev,
      };
      if (v.dist.integrity) pkg.integrity = v.dist.integrity;
      if (v.dist.shasum) pkg.shasum = v.dist.shasum;
      if (v.bin) pkg.bin = v.bin;
      if (v.deprecated) log(`npm warn deprecated ${w.name}@${v.version}: ${v.deprecated}`);
      placed.set(path, pkg);
      for (const [name, range] of Object.entries(v.dependencies ?? {})) queue.push({ from: path, name, range, dev: w.dev, optional: false });
      for (const [name, range] of Object.entries(v.optionalDependencies ?? {})) if (!(name in (v.dependencies ?? {}))) queue.push({ from: path, name, range, dev: w.dev, optional: true });
    }
  }
  return [...placed.values()].sort((a, b) => a.path.localeCompare(b.path));
}

/** The package `name` as Node would find it from `from`: the nearest node_modules up the tree. */
function visible(placed: ReadonlyMap<string, PlannedPackage>, from: string, name: string): PlannedPackage | undefined {
  let dir = from;
  for (;;) {
    const hit = placed.get(`${dir ? `${dir}/` : ""}node_modules/${name}`);
    if (hit) return hit;
    if (!dir) return undefined;
    const i = dir.lastIndexOf("/node_modules/");
    dir = i === -1 ? "" : dir.slice(0, i);
  }
}

/** A package a production dependency also reaches is not dev-only (nor is what it depends on). */
function markProd(placed: ReadonlyMap<string, PlannedPackage>, pkg: PlannedPackage): void {
  if (!pkg.dev) return;
  pkg.dev = false;
  for (const name of Object.keys(pkg.dependencies)) {
    const dep = visible(placed, pkg.path, name);
    if (dep) markProd(placed, dep);
  }
}
