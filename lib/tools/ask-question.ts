import { z } from "zod";
import { defineTool, type ToolResult } from "./define";

const description = `Ask the user one question and wait for the answer.

- Use it only when you cannot proceed without information only the user has (a choice between approaches, a missing requirement). Do not ask for things you can find out by reading the workspace.
- Offer 2 to 5 short choices when the answer is one of a few options; the user may still answer in their own words.
- One question per call.`;

const inputSchema = z.object({
  question: z.string().min(1).describe("The question, stated clearly"),
  choices: z.array(z.string().min(1)).min(2).max(5).optional().describe("Optional answers to choose from"),
});

export type AskQuestionInput = z.infer<typeof inputSchema>;

export const askQuestionTool = defineTool<AskQuestionInput>({
  name: "ask_question",
  description,
  inputSchema,
  effects: ["user-interaction"],
  approval: "none",
  async execute(input, ctx): Promise<ToolResult> {
    const answer = await ctx.ask({ question: input.question, choices: input.choices });
    return {
      output: `The user answered: ${answer}`,
      summary: `Asked: ${input.question.length > 80 ? input.question.slice(0, 79) + "…" : input.question}`,
      data: { question: input.question, choices: input.choices, answer },
    };
  },
});
