import { z } from "zod";
import { defineTool, type ToolResult } from "./define";

const description = `Finish the task: call this once the user's request is done (or cannot be done), with a short summary of what you did and what the user should know (files changed, commands run and their outcome, anything left open).

- It ends your turn: make no other tool calls after it in the same message.
- Do not call it while something you started is unverified if you could still check it.
- The summary is shown to the user as the result; write it for them, in plain language, without asking further questions.`;

const inputSchema = z.object({
  summary: z.string().min(1).describe("What was done, for the user"),
});

export type AttemptCompletionInput = z.infer<typeof inputSchema>;

export const attemptCompletionTool = defineTool<AttemptCompletionInput>({
  name: "attempt_completion",
  description,
  inputSchema,
  effects: [],
  approval: "none",
  completesRun: true,
  async execute(input): Promise<ToolResult> {
    return {
      output: "The task is marked complete and the summary was shown to the user.",
      summary: "Completed",
      completion: { summary: input.summary },
      data: { summary: input.summary },
    };
  },
});
