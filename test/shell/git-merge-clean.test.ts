/**
 * `git clean` against native git (see ./git-merge-helpers.ts) on one work tree holding every
 * kind of untracked path: files in tracked and untracked directories, ignored files and an
 * ignored directory, an untracked directory holding an ignored file, a nested repository.
 * Dry runs list the same paths; forced runs leave the same files.
 */
import { afterEach, describe, expect, it } from "vitest";
import { step, twins, type Twins } from "./git-merge-helpers";

let t: Twins | null = null;
afterEach(() => {
  t?.cleanup();
  t = null;
});

const UNTRACKED = `mkdir t && echo a > t/a && echo '*.log' > .gitignore && git add -A && git commit -qm base && echo u > u.txt && echo l > x.log && echo tl > t/y.log && echo tu > t/u && mkdir -p ud/sub && echo 1 > ud/sub/1 && echo il > ud/i.log && mkdir build && echo b > build/b.log && mkdir -p only/deeper && echo o > only/deeper/o && mkdir nested && git -C nested init -q`;

describe("git clean", () => {
  it("lists what each option combination would remove", async () => {
    t = await twins(UNTRACKED);
    for (const opts of ["", "-n", "-n -d", "-n -x", "-nd -x", "-n -X", "-n -dX", "-n t", "-n -d ud", "-n -q"]) await step(t, `git clean ${opts}`);
  });

  it("a pathspec makes -d irrelevant: a file or a directory inside an untracked directory goes when named", async () => {
    t = await twins(UNTRACKED);
    for (const opts of ["-n ud", "-n ud/sub", "-n ud/sub/1", "-n only/deeper/o", "-n -x ud/i.log", "-n ud/i.log", "-n -X ud"]) await step(t, `git clean ${opts}`);
    await step(t, "git clean -f -- ud/sub/1");
    expect(t.ws.exists("ud/sub/1")).toBe(false);
    await step(t, "git clean -f only");
    expect(t.ws.exists("only")).toBe(false);
  });

  it("-f removes untracked files only; -fd directories too but keeps ignored files; -fdx everything but the nested repository", async () => {
    t = await twins(UNTRACKED);
    await step(t, "git clean -f");
    await step(t, "git clean -fd");
    expect(t.ws.exists("ud/i.log")).toBe(true);
    expect(t.ws.exists("x.log")).toBe(true);
    await step(t, "git clean -fdx");
    expect(t.ws.exists("x.log")).toBe(false);
    expect(t.ws.exists("nested")).toBe(true);
  });

  it("-fX removes only ignored files", async () => {
    t = await twins(UNTRACKED);
    await step(t, "git clean -fX");
    expect(t.ws.exists("u.txt")).toBe(true);
    await step(t, "git clean -fdX");
  });
});
