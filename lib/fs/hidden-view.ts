/**
 * Hidden paths: a file view in which some workspace paths do not exist.
 *
 * The agent's tools and the agent's shell reach the workspace only through the view built
 * here, so a path hidden in it cannot be read by any command form — globs, variables, command
 * substitution, symlinks, `../` or absolute paths all end in a call on this view, and the view
 * decides on the path it is finally asked for (after following symlinks), not on the command
 * text. Reads, stats and writes of a hidden path fail with a HiddenPathError naming the policy;
 * directory listings leave hidden entries out; a symlink that resolves to a hidden path is
 * hidden itself, and no new one can be made.
 *
 * A rule tests workspace-relative paths; a path is hidden when the rule holds for it or for any
 * of its parent directories. Everyone else (the user's editor and terminal, checkpoints) keeps
 * the full file system this view wraps.
 */
import { normalizeAbsPath } from "./paths";
import { codedError, isNotFound, type IsoFs, type IsoFsPromises, type IsoFsStat } from "./types";

/** One reason to hide paths, contributed by a policy (e.g. the env-blocker plugin). */
export type HiddenPathRule = {
  /** Who hides the paths (named in every refusal). */
  policy: string;
  /** Why, in a sentence (ends the refusal message). */
  reason: string;
  /** True for a workspace-relative path ("a/b", posix, normalised) the agent must not see. */
  test(rel: string): boolean;
};

/** What a view asks: the rule hiding `rel` itself (not its parents), or null. */
export interface HiddenPaths {
  ruleFor(rel: string): HiddenPathRule | null;
  /** True while nothing is hidden (the view then costs nothing). */
  isEmpty?(): boolean;
}

/** A live set of rules (added and removed as policies are switched on and off). */
export class HiddenPathSet implements HiddenPaths {
  private readonly rules = new Set<HiddenPathRule>();

  /** Add a rule; returns the function that removes it again. */
  add(rule: HiddenPathRule): () => void {
    // A fresh object per add, so the same rule added twice is removed once per add.
    const entry: HiddenPathRule = { policy: rule.policy, reason: rule.reason, test: (rel) => rule.test(rel) };
    this.rules.add(entry);
    return () => void this.rules.delete(entry);
  }

  isEmpty(): boolean {
    return this.rules.size === 0;
  }

  ruleFor(rel: string): HiddenPathRule | null {
    for (const r of this.rules) if (r.test(rel)) return r;
    return null;
  }
}

/** The rule hiding `rel` or one of its parent directories ("" is never hidden). */
export function hiddenRuleOf(hidden: HiddenPaths, rel: string): HiddenPathRule | null {
  if (rel === "") return null;
  let i = rel.indexOf("/");
  while (i !== -1) {
    const r = hidden.ruleFor(rel.slice(0, i));
    if (r) return r;
    i = rel.indexOf("/", i + 1);
  }
  return hidden.ruleFor(rel);
}

/** Refusal of a hidden path. `code` is EACCES, which node-style callers understand. */
export class HiddenPathError extends Error {
  readonly code = "EACCES";
  readonly policy: string;
  readonly path: string;

  constructor(rel: string, rule: HiddenPathRule) {
    super(`${rel || "/"} is hidden from the agent by ${rule.policy}: ${rule.reason}`);
    this.name = "HiddenPathError";
    this.policy = rule.policy;
    this.path = rel;
  }
}

export function isHiddenPathError(err: unknown): err is HiddenPathError {
  return err instanceof HiddenPathError || (err as { name?: unknown } | null)?.name === "HiddenPathError";
}

export type HidingFsOptions = {
  /** Paths the view does not check (isomorphic-git's own `.git` in git's view of the work tree). */
  exempt?: (rel: string) => boolean;
};

const MAX_LINK_HOPS = 40;

/**
 * `fs` with the paths under `dir` that `hidden` names made absent: the one place the hiding is
 * decided. Paths outside `dir` are checked by their own names.
 */
export function hidingIsoFs(fs: IsoFs, dir: string, hidden: HiddenPaths, opts: HidingFsOptions = {}): IsoFs {
  const raw = fs.promises;
  const root = normalizeAbsPath(dir);
  const relOf = (abs: string): string => {
    if (abs === root) return "";
    if (root === "/") return abs.slice(1);
    if (abs.startsWith(root + "/")) return abs.slice(root.length + 1);
    return abs.slice(1);
  };
  const join = (a: string, b: string) => (a === "/" ? "/" + b : a + "/" + b);

  const lstatOrNull = async (abs: string): Promise<IsoFsStat | null> => {
    try {
      return await raw.lstat(abs);
    } catch (err) {
      if (isNotFound(err)) return null;
      throw err;
    }
  };

  /**
   * The rule hiding `abs` by name, or by where it leads once every symlink on it is followed;
   * `real` is where it leads (as far as it exists).
   */
  const resolve = async (abs: string): Promise<{ rule: HiddenPathRule | null; real: string; loop?: boolean }> => {
    const norm = normalizeAbsPath(abs);
    if (hidden.isEmpty?.()) return { rule: null, real: norm };
    const rel = relOf(norm);
    if (opts.exempt?.(rel)) return { rule: null, real: norm };
    const lexical = hiddenRuleOf(hidden, rel);
    if (lexical) return { rule: lexical, real: norm };
    // Follow the path component by component, checking every place it really passes through.
    const inside = norm === root || norm.startsWith(root === "/" ? "/" : root + "/");
    let resolved = inside ? root : "/";
    const pending = (inside ? rel : norm).split("/").filter(Boolean);
    let hops = 0;
    while (pending.length > 0) {
      const name = pending.shift()!;
      const next = join(resolved, name);
      const nextRel = relOf(next);
      const exempt = opts.exempt?.(nextRel) ?? false;
      const rule = exempt ? null : hidden.ruleFor(nextRel);
      if (rule) return { rule, real: next };
      const st = await lstatOrNull(next).catch(() => null);
      if (!st) {
        // The rest does not exist (yet): it is hidden if its names are.
        let rest = next;
        for (const n of pending) {
          rest = join(rest, n);
          const r = hidden.ruleFor(relOf(rest));
          if (r) return { rule: r, real: rest };
        }
        return { rule: null, real: rest };
      }
      if (st.isSymbolicLink() && raw.readlink && !exempt) {
        // Where a longer chain leads is not checked, so it is not followed either.
        if (++hops > MAX_LINK_HOPS) return { rule: null, real: next, loop: true };
        const t = await raw.readlink(next);
        const target = typeof t === "string" ? t : new TextDecoder().decode(t);
        const base = normalizeAbsPath(target.startsWith("/") ? target : join(resolved, target));
        const backInside = base === root || base.startsWith(root === "/" ? "/" : root + "/");
        pending.unshift(...(backInside ? relOf(base) : base).split("/").filter(Boolean));
        resolved = backInside ? root : "/";
        continue;
      }
      resolved = next;
    }
    return { rule: null, real: resolved };
  };

  /** The rule hiding entry `name` of the (visible) directory whose real path is `realDir`. */
  const entryRule = async (realDir: string, name: string): Promise<HiddenPathRule | "loop" | null> => {
    if (hidden.isEmpty?.()) return null;
    const child = join(realDir, name);
    const byName = hidden.ruleFor(relOf(child));
    if (byName) return byName;
    const st = await lstatOrNull(child).catch(() => null);
    if (!st?.isSymbolicLink()) return null;
    const r = await resolve(child).catch(() => ({ rule: null, loop: true }));
    return r.rule ?? (r.loop ? "loop" : null);
  };

  /** Throws for a hidden path; else where it really leads. */
  const check = async (path: string): Promise<string> => {
    const { rule, real, loop } = await resolve(path);
    if (rule) throw new HiddenPathError(relOf(normalizeAbsPath(path)), rule);
    if (loop) throw codedError("ELOOP", `ELOOP: too many symbolic links encountered, '${path}'`);
    return real;
  };

  /** A directory being moved must not carry hidden files along (they would leave their place). */
  const checkTree = async (realDir: string): Promise<void> => {
    const st = await lstatOrNull(realDir);
    if (!st?.isDirectory()) return;
    for (const name of await raw.readdir(realDir)) {
      const rule = await entryRule(realDir, String(name));
      const child = join(realDir, String(name));
      if (rule === "loop") throw codedError("ELOOP", `ELOOP: too many symbolic links encountered, '${child}'`);
      if (rule) throw new HiddenPathError(relOf(child), rule);
      await checkTree(child);
    }
  };

  const promises: IsoFsPromises = {
    async readFile(path, options) {
      await check(path);
      return raw.readFile(path, options);
    },
    async writeFile(path, data, options) {
      await check(path);
      return raw.writeFile(path, data, options);
    },
    async unlink(path) {
      await check(path);
      return raw.unlink(path);
    },
    async readdir(path) {
      const real = await check(path);
      const names = await raw.readdir(path);
      const shown = await Promise.all(names.map(async (n) => ((await entryRule(real, String(n))) ? null : n)));
      return shown.filter((n): n is string => n !== null);
    },
    async mkdir(path, options) {
      await check(path);
      return raw.mkdir(path, options);
    },
    async rmdir(path, options) {
      await check(path);
      return raw.rmdir(path, options);
    },
    async stat(path) {
      await check(path);
      return raw.stat(path);
    },
    async lstat(path) {
      await check(path);
      return raw.lstat(path);
    },
    async rename(from, to) {
      const real = await check(from);
      await check(to);
      if (!hidden.isEmpty?.()) await checkTree(real);
      return raw.rename(from, to);
    },
  };
  if (raw.readlink) {
    const readlink = raw.readlink.bind(raw);
    promises.readlink = async (path, options) => {
      await check(path);
      return readlink(path, options);
    };
  }
  if (raw.symlink) {
    const symlink = raw.symlink.bind(raw);
    promises.symlink = async (target, path) => {
      await check(path);
      // No new way to a hidden file: the target is checked where it leads from the link.
      const parent = normalizeAbsPath(path + "/..");
      await check(target.startsWith("/") ? target : join(parent, target));
      return symlink(target, path);
    };
  }
  if (raw.chmod) {
    const chmod = raw.chmod.bind(raw);
    promises.chmod = async (path, mode) => {
      await check(path);
      return chmod(path, mode);
    };
  }
  const utimes = (raw as { utimes?: (p: string, a: unknown, m: unknown) => Promise<unknown> }).utimes;
  if (utimes) {
    (promises as { utimes?: unknown }).utimes = async (path: string, a: unknown, m: unknown) => {
      await check(path);
      return utimes.call(raw, path, a, m);
    };
  }
  if (raw.flush) promises.flush = raw.flush.bind(raw);
  return { promises };
}
