import { describe, expect, it } from "vitest";
import type { AgentMessage } from "../../lib/agent/messages";
import { searchPieces, searchSession, searchSessions } from "../../lib/sessions/search";

let n = 0;
const user = (text: string): AgentMessage => ({ id: `m${++n}`, role: "user", createdAt: n, content: [{ type: "text", text }] });
const answer = (text: string, calls: { name: string; input: unknown }[] = []): AgentMessage => ({
  id: `m${++n}`,
  role: "assistant",
  createdAt: n,
  content: [...(text ? [{ type: "text" as const, text }] : []), ...calls.map((c, i) => ({ type: "tool-call" as const, toolCallId: `c${n}-${i}`, toolName: c.name, input: c.input }))],
});
const result = (tool: string, value: string): AgentMessage => ({ id: `m${++n}`, role: "tool", createdAt: n, content: [{ type: "tool-result", toolCallId: "x", toolName: tool, output: { type: "text", value } }] });

const parser = {
  id: "s1",
  title: "Parser work",
  updatedAt: 10,
  messages: [
    user("make the parser faster"),
    answer("Reading it.", [{ name: "read_files", input: { files: [{ path: "src/lexer/tokenize.ts" }] } }]),
    result("read_files", "export function tokenize(src: string) { /* hot loop */ }"),
    answer("", [{ name: "run_commands", input: { commands: ["npm test -- --grep tokenizer"] } }]),
    result("run_commands", "12 passing"),
    answer("The tokenizer is now 2x faster."),
  ],
};
const docs = { id: "s2", title: "Docs", updatedAt: 20, messages: [user("write the README"), answer("Done: README.md updated.", [{ name: "editor", input: { command: "create", path: "README.md", file_text: "# Tabula" } }])] };

describe("session search", () => {
  it("finds words in prompts, answers, tool calls (paths, commands) and tool results, with where and a snippet", () => {
    expect(searchSession(parser, ["tokenize.ts"])!.hits).toEqual([{ messageId: parser.messages[1]!.id, where: "tool call", tool: "read_files", snippet: "read_files src/lexer/tokenize.ts" }]);
    expect(searchSession(parser, ["--grep"])!.hits[0]).toMatchObject({ where: "tool call", tool: "run_commands" });
    expect(searchSession(parser, ["hot", "loop"])!.hits[0]).toMatchObject({ where: "tool result", messageId: parser.messages[2]!.id });
    expect(searchSession(parser, ["faster"])!.hits.map((h) => h.where)).toEqual(["prompt", "answer"]);
  });

  it("needs every word somewhere in the session (title included), not in one message", () => {
    expect(searchSession(parser, ["parser", "passing"])).toBeDefined();
    expect(searchSession(parser, ["work", "tokenizer"])).toBeDefined(); // "work" only in the title
    expect(searchSession(parser, ["parser", "readme"])).toBeUndefined();
    expect(searchSession(parser, [])).toBeUndefined();
  });

  it("ranks the messages with the most words first, shows at most three in order, and counts the rest", () => {
    const many = { ...parser, messages: [...parser.messages, user("tokenizer again"), user("tokenizer once more"), user("tokenizer and the parser")] };
    const r = searchSession(many, ["tokenizer", "parser"])!;
    expect(r.hits).toHaveLength(3);
    expect(r.hits.map((h) => h.snippet)).toContain("tokenizer and the parser");
    expect(r.more).toBeGreaterThan(0);
    const order = r.hits.map((h) => many.messages.findIndex((m) => m.id === h.messageId));
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it("cuts snippets around the first word found", () => {
    const long = { id: "s3", title: "t", updatedAt: 1, messages: [user(`${"a ".repeat(200)}needle ${"b ".repeat(200)}`)] };
    const s = searchSession(long, ["needle"])!.hits[0]!.snippet;
    expect(s.startsWith("…")).toBe(true);
    expect(s.endsWith("…")).toBe(true);
    expect(s).toContain("needle");
    expect(s.length).toBeLessThan(170);
  });

  it("lists matching sessions newest first, case-insensitively", () => {
    expect(searchSessions([parser, docs], "README").map((r) => r.sessionId)).toEqual(["s2"]);
    expect(searchSessions([parser, docs], "DONE").map((r) => r.sessionId)).toEqual(["s2"]);
    expect(searchSessions([parser, docs], "the").map((r) => r.sessionId)).toEqual(["s2", "s1"]);
    expect(searchSessions([parser, docs], "   ")).toEqual([]);
    expect(searchPieces(docs.messages).map((p) => p.where)).toEqual(["prompt", "answer", "tool call"]);
  });
});
