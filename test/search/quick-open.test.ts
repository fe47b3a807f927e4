import { describe, expect, it } from "vitest";
import { parseQuickOpenQuery, rankQuickOpen } from "../../lib/search/quick-open";

describe("quick open query", () => {
  it("splits file:line and file:line:column", () => {
    expect(parseQuickOpenQuery("src/a.ts:12")).toEqual({ file: "src/a.ts", line: 12 });
    expect(parseQuickOpenQuery(" src/a.ts:12:5 ")).toEqual({ file: "src/a.ts", line: 12, column: 5 });
    expect(parseQuickOpenQuery("src/a.ts(7,3)")).toEqual({ file: "src/a.ts", line: 7, column: 3 });
    expect(parseQuickOpenQuery("smts:4")).toEqual({ file: "smts", line: 4 });
  });

  it("leaves a query without a position alone, and ignores line 0", () => {
    expect(parseQuickOpenQuery("src/a.ts")).toEqual({ file: "src/a.ts" });
    expect(parseQuickOpenQuery("src/a.ts:0")).toEqual({ file: "src/a.ts" });
    expect(parseQuickOpenQuery(":12")).toEqual({ file: ":12" });
  });
});

describe("quick open ranking", () => {
  const files = ["README.md", "src/index.ts", "src/greet.ts", "src/math/sum.ts", "docs/summary.md"];

  it("an empty query lists recent files first, most recent first, then the rest by path", () => {
    const r = rankQuickOpen("", files, ["src/math/sum.ts", "gone.ts", "README.md"]).map((e) => e.path);
    expect(r).toEqual(["src/math/sum.ts", "README.md", "docs/summary.md", "src/greet.ts", "src/index.ts"]);
  });

  it("recent use breaks near-ties but does not beat a much better match", () => {
    const near = ["src/a/util.ts", "src/b/util.ts"];
    expect(rankQuickOpen("util", near, [])[0].path).toBe("src/a/util.ts");
    expect(rankQuickOpen("util", near, ["src/b/util.ts"])[0].path).toBe("src/b/util.ts");
    expect(rankQuickOpen("sum", files, ["docs/summary.md"])[0].path).toBe("src/math/sum.ts");
  });

  it("ranks a text file above an image of the same name", () => {
    const r = rankQuickOpen("logo", ["assets/logo.png", "src/logo.ts"], []).map((e) => e.path);
    expect(r).toEqual(["src/logo.ts", "assets/logo.png"]);
  });

  it("matches only the file part of file:line", () => {
    expect(rankQuickOpen("smts:3", files, [])[0].path).toBe("src/math/sum.ts");
  });
});
