import { describe, expect, it } from "vitest";
import { searchFieldsFilter } from "../../lib/search/path-glob";

const paths = ["src/a.ts", "src/a.test.ts", "lib/src/b.ts", "docs/README.md", "README.md", "src/math/sum.ts", "package.json"];
const pick = (inc: string, exc: string) => paths.filter(searchFieldsFilter(inc, exc));

describe("searchFieldsFilter (files to include / to exclude)", () => {
  it("keeps everything when both fields are empty", () => {
    expect(pick("", " ")).toEqual(paths);
  });
  it("reads comma-separated globs, a plain name as a folder or file anywhere", () => {
    expect(pick("*.ts", "")).toEqual(["src/a.ts", "src/a.test.ts", "lib/src/b.ts", "src/math/sum.ts"]);
    expect(pick("src", "")).toEqual(["src/a.ts", "src/a.test.ts", "lib/src/b.ts", "src/math/sum.ts"]);
    expect(pick("README.md, package.json", "")).toEqual(["docs/README.md", "README.md", "package.json"]);
    expect(pick("src/**", "*.test.ts, math")).toEqual(["src/a.ts"]);
    expect(pick("", "docs, *.json")).toEqual(["src/a.ts", "src/a.test.ts", "lib/src/b.ts", "README.md", "src/math/sum.ts"]);
  });
  it("takes a '!' negation in the include field too, as the agent's globs do", () => {
    expect(pick("src/**, !**/*.test.ts", "")).toEqual(["src/a.ts", "src/math/sum.ts"]);
  });
});
