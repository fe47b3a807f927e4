/**
 * Ignore rules for the engine, on top of lib/git's IgnoreRules (git's semantics: root and
 * nested .gitignore files, .git/info/exclude, negation, dir-only patterns, excluded parents).
 *
 * lib/git's `createIgnoreMatcher` walks the whole tree up front; the engine needs the lazy
 * form (`prepare(path)` then `test`) so a journal-driven checkpoint reads only the ignore
 * files on the way to the changed paths. `treeRules` evaluates the rules a checkpoint's own
 * tree carries (its .gitignore files), so a restore does not delete files the checkpoint
 * ignored (Cline #14367 in reverse).
 */
import { IgnoreRules } from "../git/ignore";
import type { IsoFs } from "../fs/types";
import { joinAbs } from "./util";

export type Rules = {
  prepare(rel: string): Promise<void>;
  test(rel: string, isDir: boolean): boolean;
  /** `test(dir/name)` for a `dir` known not to be excluded (its ancestors are not re-decided). */
  testChild?(dir: string, name: string, isDir: boolean): boolean;
  /** The scan just listed directory `rel`: whether it holds a .gitignore (saves a failing
   * open of `<rel>/.gitignore` per directory: most directories have none). */
  noteListing?(rel: string, hasIgnoreFile: boolean): void;
};

/** One shared error: most directories have no .gitignore, and an Error's stack costs. */
const MISSING = Object.assign(new Error("ENOENT: no .gitignore here (known from the listing)"), { code: "ENOENT" });
const missing = () => MISSING;

/** Rules of the working tree; ignore files are read only where a listing says they exist
 * (or where no listing was seen). */
export function workingTreeRules(fs: IsoFs, dir: string): Rules {
  const listed = new Map<string, boolean>();
  const prefix = dir.endsWith("/") ? dir : dir + "/";
  const shim = {
    promises: {
      ...fs.promises,
      readFile(abs: string, options?: unknown) {
        if (abs.endsWith("/.gitignore")) {
          const parent = abs.slice(0, -"/.gitignore".length);
          const rel = parent === dir ? "" : parent.startsWith(prefix) ? parent.slice(prefix.length) : undefined;
          if (rel !== undefined && listed.get(rel) === false) return Promise.reject(missing());
        }
        return fs.promises.readFile(abs, options);
      },
    },
  } as IsoFs;
  const ignore = new IgnoreRules({ fs: shim, dir });
  const rules = ignore as unknown as Rules;
  rules.noteListing = (rel, has) => {
    listed.set(rel, has);
    if (!has) ignore.noteAbsent(rel);
  };
  return rules;
}

/**
 * Rules as of a tree: `.gitignore` files come from `readIgnoreFile(rel)` (the blob at that
 * path in the tree, or null), `.git/info/exclude` from the real file system.
 */
export function treeRules(fs: IsoFs, dir: string, readIgnoreFile: (rel: string) => Promise<Uint8Array | null>): Rules {
  const gitdir = joinAbs(dir, ".git");
  const prefix = dir.endsWith("/") ? dir : dir + "/";
  const shim = {
    promises: {
      ...fs.promises,
      async readFile(abs: string): Promise<Uint8Array> {
        if (abs.startsWith(gitdir + "/")) return (await fs.promises.readFile(abs)) as Uint8Array;
        const rel = abs === dir ? "" : abs.startsWith(prefix) ? abs.slice(prefix.length) : null;
        const data = rel === null ? null : await readIgnoreFile(rel);
        if (!data) throw Object.assign(new Error(`ENOENT: ${abs}`), { code: "ENOENT" });
        return data;
      },
    },
  } as IsoFs;
  return new IgnoreRules({ fs: shim, dir });
}
