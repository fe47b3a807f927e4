import { describe, expect, it } from "vitest";
import { createTwoFilesPatch } from "diff";
import { textBeforeEdit } from "../../lib/editor/edit-diff";

describe("the text before an edit", () => {
  const before = "a\nb\nc\nd\n";
  const after = "a\nB!\nc\nd\ne\n";
  const patch = createTwoFilesPatch("a/x.ts", "b/x.ts", before, after);

  it("reverses the edit's diff on the current text", () => {
    expect(textBeforeEdit(after, patch)).toBe(before);
  });

  it("says it cannot when the edited lines changed since", () => {
    expect(textBeforeEdit("a\nsomething else\nc\nd\ne\n", patch)).toBeUndefined();
    expect(textBeforeEdit(after, "not a diff")).toBeUndefined();
  });
});
