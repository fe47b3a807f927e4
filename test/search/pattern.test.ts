import { describe, expect, it } from "vitest";
import { compilePattern, PatternError } from "../../lib/search/pattern";
import { compilePathGlobs, GlobError } from "../../lib/search/path-glob";
import { countLinesInBytes, forEachLine, LINE_WINDOW_BYTES, readLineRange } from "../../lib/search/text-lines";

const enc = (s: string) => new TextEncoder().encode(s);

describe("search patterns (RE2, linear time)", () => {
  it("matches like JavaScript for the common syntax, with UTF-16 indices", () => {
    expect(compilePattern("b", { regex: true }).exec("😀b")).toEqual({ index: 2, length: 1 });
    expect(compilePattern("\\bfoo\\b", { regex: true }).exec("a foobar foo")).toEqual({ index: 9, length: 3 });
    expect(compilePattern("(?<n>\\d+)-\\d+", { regex: true }).exec("v 12-34")).toEqual({ index: 2, length: 5 });
    expect(compilePattern("\\u00e9+", { regex: true }).exec("caféé")).toEqual({ index: 3, length: 2 });
    expect(compilePattern("\\u{1F600}", { regex: true }).exec("x😀")).toEqual({ index: 1, length: 2 });
    expect(compilePattern("(?<=\\$)\\w+", { regex: true }).exec("cost $usd")).toEqual({ index: 6, length: 3 });
    expect(compilePattern("[]a]+", { regex: true }).exec("x]a]")).toEqual({ index: 1, length: 3 });
    expect(compilePattern("GREET", { regex: true }).test("greet")).toBe(true);
    expect(compilePattern("GREET", { regex: true, caseSensitive: true }).test("greet")).toBe(false);
  });

  it("treats a literal query literally and honours whole word", () => {
    expect(compilePattern("a.b*(c)").exec("xa.b*(c)")).toEqual({ index: 1, length: 7 });
    expect(compilePattern("a.b").test("axb")).toBe(false);
    expect(compilePattern("foo", { wholeWord: true }).exec("foobar foo")).toEqual({ index: 7, length: 3 });
  });

  it("finishes catastrophic patterns at once", () => {
    const t = Date.now();
    for (const p of ["(a+)+$", "(a|aa)*c", "(x+x+)+y", "^(\\w+\\s?)*$"]) {
      expect(compilePattern(p, { regex: true }).exec("a".repeat(20_000) + "!")).toBeNull();
    }
    expect(Date.now() - t).toBeLessThan(3000);
  });

  it("refuses backreferences and lookahead with an alternative, and explains syntax errors", () => {
    expect(() => compilePattern("(\\w)\\1", { regex: true })).toThrow(PatternError);
    expect(() => compilePattern("(\\w)\\1", { regex: true })).toThrow(/Backreferences \(\\1\) are not supported.*linear-time/);
    expect(() => compilePattern("(?<q>')\\k<q>", { regex: true })).toThrow(/Named backreferences/);
    expect(() => compilePattern("foo(?=bar)", { regex: true })).toThrow(/Lookahead .*"foo\(\?=bar\)" → "foobar"/);
    expect(() => compilePattern("foo(?!bar)", { regex: true })).toThrow(/negated class/);
    expect(() => compilePattern("(unclosed", { regex: true })).toThrow(/^Invalid regular expression: missing closing \)/);
    // Said once, quoting what the user typed, not the flags it was compiled with.
    expect(() => compilePattern("(", { regex: true })).toThrow(new PatternError("Invalid regular expression: missing closing ): `(`"));
    // Escaped, they are ordinary text.
    expect(compilePattern("\\(?=", { regex: true }).test("(=")).toBe(true);
  });
});

describe("path globs (picomatch)", () => {
  const pick = (glob: string | string[], paths: string[]) => paths.filter(compilePathGlobs(glob));
  const paths = ["a.ts", "a.d.ts", "src/b.js", "src/c.tsx", "src/x/d.jsx", "README.md", ".eslintrc.js"];

  it("classes, nested braces, globstar, basename matching and dotfiles", () => {
    expect(pick("*.[jt]s", paths)).toEqual(["a.ts", "a.d.ts", "src/b.js", ".eslintrc.js"]);
    expect(pick("src/**/*.{js,{tsx,jsx}}", paths)).toEqual(["src/b.js", "src/c.tsx", "src/x/d.jsx"]);
    expect(pick("src/*", paths)).toEqual(["src/b.js", "src/c.tsx"]);
    expect(pick("./src/x/*.jsx", paths)).toEqual(["src/x/d.jsx"]);
  });

  it("! excludes, alone or after includes", () => {
    expect(pick(["*.ts", "!*.d.ts"], paths)).toEqual(["a.ts"]);
    expect(pick("!src/**", paths)).toEqual(["a.ts", "a.d.ts", "README.md", ".eslintrc.js"]);
    expect(pick("!(*.md)", ["a.md", "b.ts"])).toEqual(["b.ts"]);
  });

  it("says so when a glob is empty", () => {
    expect(() => compilePathGlobs("!")).toThrow(GlobError);
  });
});

describe("lines from bytes", () => {
  it("counts and reads ranges like an editor, CRLF included", () => {
    expect(countLinesInBytes(enc(""))).toBe(0);
    expect(countLinesInBytes(enc("a\nb"))).toBe(2);
    expect(countLinesInBytes(enc("a\r\nb\r\n"))).toBe(2);
    const r = readLineRange(enc("one\r\ntwo\nthree\n"), 2, 9);
    expect(r).toEqual({ totalLines: 3, lines: [{ text: "two", cut: false }, { text: "three", cut: false }] });
    const cut = readLineRange(enc("ééééé\n"), 1, 1, 3);
    expect(cut.lines).toEqual([{ text: "é", cut: true }]);
  });

  it("hands a very long line over in overlapping windows with exact offsets", () => {
    const head = "é".repeat(LINE_WINDOW_BYTES / 2); // 2 bytes, 1 UTF-16 unit each
    const text = head + "x".repeat(LINE_WINDOW_BYTES) + "NEEDLE" + "\nnext";
    const seen: { line: number; offset: number; at: number }[] = [];
    forEachLine(enc(text), (line, piece, offset) => {
      const at = piece.indexOf("NEEDLE");
      if (at !== -1) seen.push({ line, offset, at: offset + at });
    });
    expect(seen.length).toBeGreaterThanOrEqual(1);
    for (const s of seen) expect(s).toMatchObject({ line: 1, at: text.indexOf("NEEDLE") });
    const lines: number[] = [];
    forEachLine(enc(text), (line) => void lines.push(line));
    expect(new Set(lines)).toEqual(new Set([1, 2]));
  });
});
