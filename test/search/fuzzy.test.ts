import { describe, expect, it } from "vitest";
import { fuzzyFilter, fuzzyMatch } from "../../lib/search/fuzzy";

describe("fuzzy quick open", () => {
  const paths = ["src/math/sum.ts", "src/index.ts", "docs/summary.md", "README.md", "src/greet.ts", "test/sum.test.ts"];

  it("requires every character in order", () => {
    expect(fuzzyMatch("smt", "src/math/sum.ts")).toBeDefined();
    expect(fuzzyMatch("xyz", "src/math/sum.ts")).toBeUndefined();
    expect(fuzzyMatch("tms", "src/math/sum.ts")?.positions.length).toBe(3);
  });

  it("ranks file-name matches above directory matches", () => {
    const ranked = fuzzyFilter("sum", paths).map((m) => m.path);
    expect(ranked[0]).toBe("src/math/sum.ts");
    expect(ranked).toContain("docs/summary.md");
    expect(ranked).not.toContain("README.md");
  });

  it("returns the matched positions inside the path", () => {
    const m = fuzzyMatch("gr", "src/greet.ts")!;
    expect(m.positions.map((i) => "src/greet.ts"[i]).join("")).toBe("gr");
  });

  it("an empty query matches everything, capped by the limit", () => {
    expect(fuzzyFilter("", paths, 3)).toHaveLength(3);
  });
});
