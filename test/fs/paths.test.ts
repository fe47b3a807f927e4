import { describe, expect, it } from "vitest";
import {
  basenameRel,
  dirnameRel,
  isGitInternal,
  joinRel,
  normalizeRelPath,
  resolveInWorkspace,
  toWorkspaceRel,
  WorkspacePathError,
} from "../../lib/fs/paths";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(WorkspacePathError);
    return (err as WorkspacePathError).code;
  }
  return undefined;
}

describe("normalizeRelPath", () => {
  it.each([
    ["a/./b", "a/b"],
    ["/a/b", "a/b"],
    ["a//b", "a/b"],
    ["a/b/", "a/b"],
    ["./a", "a"],
    ["a/../b", "b"],
    ["", ""],
    ["/", ""],
    [".", ""],
    ["a\\b", "a/b"],
    ["ünï cødé/文件.txt", "ünï cødé/文件.txt"],
    ["...", "..."],
    ["..a/b..", "..a/b.."],
  ])("%j → %j", (input, expected) => {
    expect(normalizeRelPath(input)).toBe(expected);
  });

  it.each(["..", "../x", "a/../../x", "/../etc/passwd", "..\\x", "a\\..\\..\\x"])("refuses escape %j", (p) => {
    expect(codeOf(() => normalizeRelPath(p))).toBe("ESCAPE");
  });

  it("refuses NUL bytes", () => {
    expect(codeOf(() => normalizeRelPath("a\0b"))).toBe("NUL");
  });

  it("gives human messages", () => {
    expect(() => normalizeRelPath("../x")).toThrow('Path "../x" escapes the workspace');
  });

  it("refuses non-strings and absurd lengths as INVALID", () => {
    expect(codeOf(() => normalizeRelPath(42 as unknown as string))).toBe("INVALID");
    expect(codeOf(() => normalizeRelPath("a/".repeat(3000)))).toBe("INVALID");
  });
});

describe("toWorkspaceRel / resolveInWorkspace", () => {
  it("accepts absolute paths inside the workspace and refuses those outside", () => {
    expect(toWorkspaceRel("/ws", "/ws/a/b")).toBe("a/b");
    expect(toWorkspaceRel("/ws", "/ws")).toBe("");
    expect(toWorkspaceRel("/ws/", "/ws/./a/../b")).toBe("b");
    expect(codeOf(() => toWorkspaceRel("/ws", "/wsx/a"))).toBe("ESCAPE");
    expect(codeOf(() => toWorkspaceRel("/ws", "/etc/passwd"))).toBe("ESCAPE");
    expect(codeOf(() => toWorkspaceRel("/ws", "/ws/../etc"))).toBe("ESCAPE");
    expect(toWorkspaceRel("/", "/a/b")).toBe("a/b");
    expect(toWorkspaceRel("/ws", "a/b")).toBe("a/b");
  });

  it("resolves under the workspace", () => {
    expect(resolveInWorkspace("/ws", "a/./b")).toBe("/ws/a/b");
    expect(resolveInWorkspace("/ws/", "")).toBe("/ws");
    expect(resolveInWorkspace("/", "a")).toBe("/a");
    expect(codeOf(() => resolveInWorkspace("/ws", "../x"))).toBe("ESCAPE");
  });
});

describe("helpers", () => {
  it("isGitInternal", () => {
    expect(isGitInternal(".git")).toBe(true);
    expect(isGitInternal(".git/config")).toBe(true);
    expect(isGitInternal("/.GIT/HEAD")).toBe(true);
    expect(isGitInternal("./.Git")).toBe(true);
    expect(isGitInternal(".gitignore")).toBe(false);
    expect(isGitInternal("a/.git")).toBe(false);
    expect(isGitInternal(".github/workflows")).toBe(false);
  });

  it("joinRel, dirnameRel, basenameRel", () => {
    expect(joinRel("a", "b/c")).toBe("a/b/c");
    expect(joinRel("", "b")).toBe("b");
    expect(joinRel("a/b", "../c")).toBe("a/c");
    expect(dirnameRel("a/b/c.txt")).toBe("a/b");
    expect(dirnameRel("c.txt")).toBe("");
    expect(dirnameRel("")).toBe("");
    expect(basenameRel("a/b/c.txt")).toBe("c.txt");
    expect(basenameRel("c.txt")).toBe("c.txt");
  });
});
