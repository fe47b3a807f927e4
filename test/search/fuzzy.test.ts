import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyMatch } from "../../lib/search/fuzzy";

const ranked = (query: string, paths: string[]) => fuzzyFilter(query, paths).map((m) => m.path);

describe("fuzzy matching", () => {
  const paths = ["src/math/sum.ts", "src/index.ts", "docs/summary.md", "README.md", "src/greet.ts", "test/sum.test.ts"];

  it("requires every character in order", () => {
    expect(fuzzyMatch("smt", "src/math/sum.ts")).toBeDefined();
    expect(fuzzyMatch("xyz", "src/math/sum.ts")).toBeUndefined();
    expect(fuzzyMatch("tmz", "src/math/sum.ts")).toBeUndefined();
    expect(fuzzyMatch("sum", "s/u")).toBeUndefined();
    expect(fuzzyMatch("src/math/sum.ts.x", "src/math/sum.ts")).toBeUndefined();
  });

  it("returns the positions of the best alignment, not the first letters found", () => {
    // Greedy would take the `s` of `src` and the `u` of… nothing; the best alignment is the file name.
    const m = fuzzyMatch("sum", "src/math/sum.ts")!;
    expect(m.positions).toEqual([9, 10, 11]);
    const g = fuzzyMatch("gr", "src/greet.ts")!;
    expect(g.positions.map((i) => "src/greet.ts"[i]).join("")).toBe("gr");
  });

  it("smts finds src/math/sum.ts by the starts of its segments", () => {
    const m = fuzzyMatch("smts", "src/math/sum.ts")!;
    expect(m.positions.map((i) => "src/math/sum.ts"[i]).join("")).toBe("smts");
    expect(ranked("smts", ["src/systems/items.ts", "src/math/sum.ts", "docs/some-notes.txt"])[0]).toBe("src/math/sum.ts");
  });

  it("ranks file-name matches above directory matches", () => {
    const r = ranked("sum", paths);
    expect(r[0]).toBe("src/math/sum.ts");
    expect(r).toContain("docs/summary.md");
    expect(r).not.toContain("README.md");
    expect(r.indexOf("src/math/sum.ts")).toBeLessThan(r.indexOf("docs/summary.md"));
    expect(ranked("greet", ["src/greetings/index.ts", "src/greet.ts"])[0]).toBe("src/greet.ts");
  });

  it("rewards camelCase humps", () => {
    expect(ranked("qo", ["lib/quota.ts", "components/search/QuickOpen.tsx"])[0]).toBe("components/search/QuickOpen.tsx");
    expect(ranked("fif", ["src/fixtures/info.json", "components/search/FindInFiles.tsx"])[0]).toBe("components/search/FindInFiles.tsx");
  });

  it("rewards consecutive characters over scattered ones", () => {
    expect(ranked("index", ["src/in-d-e-x.ts", "src/index.ts"])[0]).toBe("src/index.ts");
    expect(ranked("read", ["src/r/e/a/d.ts", "README.md"])[0]).toBe("README.md");
  });

  it("printer-est ranks printer-estree.js above an image that merely contains the letters", () => {
    // Paths of a real repository (prettier): the PNG used to come first.
    const repo = [
      "website/static/images/youtube-cover/a-prettier-printer-by-james-long-on-react-conf-2017.png",
      "src/document/printer/print-result.js",
      "tests/format/misc/plugins/async-printer/format.test.js",
      "src/language-js/printer-estree.js",
      "src/language-js/print/estree.js",
      "scripts/generate-flow-estree-type-definition.js",
    ];
    const r = ranked("printer-est", repo);
    expect(r[0]).toBe("src/language-js/printer-estree.js");
    expect(r.indexOf("src/language-js/printer-estree.js")).toBeLessThan(r.indexOf(repo[0]));
    // Without it (prettier's tree today), the whole word "printer" as a folder still beats the image's scattered letters.
    expect(ranked("printer-est", repo.filter((p) => !p.endsWith("printer-estree.js")))[0]).toBe("src/document/printer/print-result.js");
  });

  it("a separator in the query matches any separator in the path", () => {
    expect(fuzzyMatch("sum-test", "test/sum.test.ts")).toBeDefined();
    expect(fuzzyMatch("math/sum", "src/math/sum.ts")).toBeDefined();
    expect(fuzzyMatch("math/sum", "src/math-sum.ts")).toBeUndefined();
  });

  it("an empty query matches everything, capped by the limit", () => {
    expect(fuzzyFilter("", paths, 3)).toHaveLength(3);
  });

  it("scores paths longer than its table by their tail", () => {
    const long = `${"deep/".repeat(200)}target.ts`;
    const m = fuzzyMatch("target", long)!;
    expect(m.positions.map((i) => long[i]).join("")).toBe("target");
  });
});
