import { describe, expect, it } from "vitest";
import { insertMention, mentionEntries, mentionQueryAt, mentionText, parseMentions, rankMentionCandidates, removeMention, type PathLookup } from "../../lib/agent/mentions";

const tree: Record<string, "file" | "folder"> = { src: "folder", "src/greet.ts": "file", "src/index.ts": "file", "docs/my notes.md": "file", docs: "folder", "README.md": "file" };
const lookup: PathLookup = (p) => tree[p];

describe("parseMentions", () => {
  it("finds files, folders, quoted paths and the special mentions, each once, in order", () => {
    const text = 'look at @src/greet.ts and @src/ then @"docs/my notes.md", @selection and @diff; again @src/greet.ts';
    const refs = parseMentions(text, lookup).map((s) => s.ref);
    expect(refs).toEqual([
      { kind: "file", path: "src/greet.ts" },
      { kind: "folder", path: "src" },
      { kind: "file", path: "docs/my notes.md" },
      { kind: "selection" },
      { kind: "diff" },
    ]);
  });

  it("drops trailing punctuation, accepts ./ and leaves unknown tokens and e-mail addresses as text", () => {
    const spans = parseMentions("see @./src/greet.ts. mail me@src/greet.ts or @param or (@README.md)", lookup);
    expect(spans.map((s) => s.ref)).toEqual([
      { kind: "file", path: "src/greet.ts" },
      { kind: "file", path: "README.md" },
    ]);
    expect(spans[0]).toMatchObject({ start: 4 });
  });
});

describe("the popup's query and the pick", () => {
  it("is the @word being typed at the caret, and nothing after a space or inside a word", () => {
    expect(mentionQueryAt("explain @gre", 12)).toEqual({ start: 8, query: "gre" });
    expect(mentionQueryAt("@", 1)).toEqual({ start: 0, query: "" });
    expect(mentionQueryAt("explain @gre now", 16)).toBeUndefined();
    expect(mentionQueryAt("me@host", 7)).toBeUndefined();
  });

  it("replaces the query with the mention and a space, and puts the caret after it", () => {
    expect(insertMention("explain @gre please", 8, 12, { kind: "file", path: "src/greet.ts" })).toEqual({ text: "explain @src/greet.ts please", caret: 22 });
    expect(insertMention("@do", 0, 3, { kind: "file", path: "docs/my notes.md" }).text).toBe('@"docs/my notes.md" ');
    expect(mentionText({ kind: "folder", path: "src" })).toBe("@src/");
  });

  it("ranks the special mentions first, then files and folders by fuzzy match", () => {
    const entries = mentionEntries([
      { path: "src", type: "dir", children: [{ path: "src/greet.ts", type: "file" }, { path: "src/index.ts", type: "file" }] },
      { path: "grep.md", type: "file" },
    ]);
    expect(entries).toEqual([
      { path: "src", kind: "folder" },
      { path: "src/greet.ts", kind: "file" },
      { path: "src/index.ts", kind: "file" },
      { path: "grep.md", kind: "file" },
    ]);
    expect(rankMentionCandidates("gre", entries).map((c) => c.label).sort()).toEqual(["grep.md", "src/greet.ts"]);
    expect(rankMentionCandidates("greet", entries).map((c) => c.label)).toEqual(["src/greet.ts"]);
    expect(rankMentionCandidates("sel", entries)[0]!.ref).toEqual({ kind: "selection" });
    expect(rankMentionCandidates("src", entries).map((c) => c.label)).toContain("src/");
  });

  it("leaves hidden paths out of the entries", () => {
    const entries = mentionEntries([{ path: ".env", type: "file" }, { path: "a.ts", type: "file" }], (p) => p === ".env");
    expect(entries).toEqual([{ path: "a.ts", kind: "file" }]);
  });

  it("removes one mention from the text, leaving one space", () => {
    const text = "explain @src/greet.ts please";
    const [span] = parseMentions(text, lookup);
    expect(removeMention(text, span!)).toBe("explain please");
    const lead = "@src/greet.ts explain";
    expect(removeMention(lead, parseMentions(lead, lookup)[0]!)).toBe("explain");
  });
});
