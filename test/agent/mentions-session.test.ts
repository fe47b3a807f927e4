import { describe, expect, it } from "vitest";
import type { UserMessage } from "../../lib/agent/messages";
import { harnessPerTest } from "./helpers";

const { h } = harnessPerTest();

/** The text of the user messages in model call `i`. */
function userTexts(model: ReturnType<typeof h>["model"], i: number): string[][] {
  return (model.calls[i]?.prompt ?? []).filter((m) => m.role === "user").map((m) => (m.content as { type: string; text?: string }[]).map((p) => p.text ?? ""));
}

describe("a prompt with @-mentions in a session", () => {
  it("attaches the mentioned file to the user message and the model reads it after the prompt", async () => {
    const t = h([{ text: "It greets." }], { files: { "src/greet.ts": "export function greet() { return 'hi'; }\n" } });
    const r = await t.session.run("what does @src/greet.ts do?");
    expect(r.status).toBe("completed");
    const user = t.session.state.messages[0] as UserMessage;
    expect(user.content).toEqual([{ type: "text", text: "what does @src/greet.ts do?" }]);
    expect(user.context).toHaveLength(1);
    expect(user.context![0]).toMatchObject({ kind: "file", label: "src/greet.ts", sent: 41 });
    const [parts] = userTexts(t.model, 0);
    expect(parts![0]).toBe("what does @src/greet.ts do?");
    expect(parts![1]).toContain("<file source=\"src/greet.ts\">\nexport function greet() { return 'hi'; }\n</file>");
    // The context stays with the message: the next request carries it again.
    const again = await t.session.run("and now?");
    expect(again.status).toBe("completed");
    expect(userTexts(t.model, 1)[0]![1]).toContain("export function greet()");
    // It survives the saved form.
    expect((t.session.toJSON().messages[0] as UserMessage).context![0]!.text).toContain("greet");
  });

  it("leaves a prompt without a known mention as it was", async () => {
    const t = h([{ text: "ok" }]);
    await t.session.run("mail me@example.org about @nothing");
    expect((t.session.state.messages[0] as UserMessage).context).toBeUndefined();
    expect(userTexts(t.model, 0)[0]).toEqual(["mail me@example.org about @nothing"]);
  });

  it("uses the app's resolver, and a resolver that fails costs the context, not the run", async () => {
    const t = h([{ text: "ok" }, { text: "ok" }], {
      session: {
        resolveMentions: async (prompt) => {
          if (prompt.includes("@boom")) throw new Error("the editor is gone");
          return [{ kind: "selection", label: "selection", source: "a.ts:1", text: "picked", size: 6, sent: 6 }];
        },
      },
    });
    await t.session.run("explain @selection");
    expect(userTexts(t.model, 0)[0]![1]).toContain('<selection source="a.ts:1">\npicked\n</selection>');
    const r = await t.session.run("now @boom");
    expect(r.status).toBe("completed");
    expect(t.of("error").map((e) => e.message)).toEqual(["The prompt's mentions could not be read: the editor is gone"]);
  });

  it("reads the workspace rules from the app's choice once per run", async () => {
    let calls = 0;
    const t = h([{ text: "ok" }], {
      files: { "AGENTS.md": "from the file" },
      session: {
        workspaceRules: async () => {
          calls++;
          return [{ source: "CLAUDE.md", text: "Answer in haiku." }];
        },
      },
    });
    await t.session.run("hi");
    const system = t.model.calls[0]!.prompt[0]!.content as string;
    expect(system).toContain('<rules source="CLAUDE.md">\nAnswer in haiku.');
    expect(system).not.toContain("from the file");
    expect(calls).toBe(1);
  });
});
