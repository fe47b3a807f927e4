import { z } from "zod";
import { defineTool, errorResult, type ToolResult } from "./define";

const description = `Open the workspace's web preview (the workspace served as a static site: HTML, CSS, JavaScript, TypeScript compiled on the fly) and report what the page shows: its title, its visible text, and what it logged — console output, uncaught errors, and requests that failed.

- path: the page to load, from the site's root ("/" is index.html, the default; "/docs/" is docs/index.html). Without it, the page shown is reloaded.
- Use it after changing a web page to check that it renders and runs without errors. The page runs in the user's preview pane, isolated from the app; it cannot change the workspace.
- The text is cut at 8,000 characters.`;

const inputSchema = z.object({
  path: z.string().max(2000).optional().describe('Page to load, from the site root (default "/")'),
});

export type PreviewInput = z.infer<typeof inputSchema>;

const MAX_TEXT = 8000;
const MAX_CONSOLE = 100;

export const previewTool = defineTool<PreviewInput>({
  name: "preview",
  description,
  inputSchema,
  // The page's own scripts run (in the preview's origin, not the app's): like a command, it is
  // off in the read-only modes; it cannot write the workspace.
  effects: ["process"],
  approval: "read",
  async execute(input, ctx): Promise<ToolResult> {
    if (!ctx.preview) return errorResult("The web preview is not available here (no preview pane in this session).");
    let shot;
    try {
      shot = await ctx.preview.show(input.path, ctx.signal);
    } catch (err) {
      return errorResult(`The preview could not be shown: ${(err as Error).message}`);
    }
    const errors = shot.console.filter((e) => e.level === "error");
    const text = shot.text.length > MAX_TEXT ? `${shot.text.slice(0, MAX_TEXT)}\n[… cut at ${MAX_TEXT} characters]` : shot.text;
    const logged = shot.console.slice(-MAX_CONSOLE).map((e) => `[${e.source === "console" ? e.level : e.source === "request" ? "failed request" : "uncaught"}] ${e.text}`);
    const output = [
      `Page: ${shot.url}${shot.title ? ` — "${shot.title}"` : ""}`,
      "",
      "Text:",
      text.trim() || "(the page shows no text)",
      "",
      logged.length ? `Console (${shot.console.length}${shot.console.length > MAX_CONSOLE ? `, the last ${MAX_CONSOLE}` : ""}):` : "Console: nothing logged, no errors.",
      ...logged,
    ].join("\n");
    return {
      output,
      summary: `${shot.url}: ${errors.length ? `${errors.length} error${errors.length === 1 ? "" : "s"}` : "no errors"}`,
      data: { url: shot.url, errors: errors.length },
    };
  },
});
