/** The agent's `preview` tool: what it reports of the page, and where it is offered. */
import { afterEach, describe, expect, it } from "vitest";
import { previewTool } from "../../lib/tools/preview";
import { isOnSurface } from "../../lib/modes/policy-table";
import type { PreviewService, PreviewSnapshot } from "../../lib/preview/controller";
import { call, ctxFor, tempWs } from "./helpers";
import type { TempWs } from "../agent/helpers";

let ws: TempWs | undefined;
afterEach(async () => {
  ws?.cleanup();
  ws = undefined;
});

function service(shot: PreviewSnapshot, asked: Array<string | undefined>): PreviewService {
  return { show: async (path) => (asked.push(path), shot) };
}

describe("the preview tool", () => {
  it("reports the page's title, text and console, errors counted in its summary", async () => {
    ws = await tempWs();
    const asked: Array<string | undefined> = [];
    const ctx = {
      ...ctxFor(ws),
      preview: service(
        {
          url: "/index.html",
          title: "Counter",
          text: "Count: 0\nIncrement",
          console: [
            { level: "log", source: "console", text: "mounted", at: 1 },
            { level: "error", source: "error", text: "Uncaught TypeError: x is undefined (app.js:3:7)", at: 2 },
            { level: "error", source: "request", text: "404 Not Found http://x/preview/s/missing.css", at: 3 },
          ],
        },
        asked,
      ),
    };
    const r = await call(previewTool, { path: "/" }, ctx);
    expect(asked).toEqual(["/"]);
    expect(r.isError).toBeFalsy();
    expect(r.output).toContain('Page: /index.html — "Counter"');
    expect(r.output).toContain("Count: 0\nIncrement");
    expect(r.output).toContain("[log] mounted");
    expect(r.output).toContain("[uncaught] Uncaught TypeError: x is undefined (app.js:3:7)");
    expect(r.output).toContain("[failed request] 404 Not Found");
    expect(r.summary).toBe("/index.html: 2 errors");

    const quiet = await call(previewTool, {}, { ...ctxFor(ws), preview: service({ url: "/", title: "", text: "", console: [] }, asked) });
    expect(asked[1]).toBeUndefined(); // no path: the page shown is reloaded
    expect(quiet.output).toContain("(the page shows no text)");
    expect(quiet.output).toContain("Console: nothing logged, no errors.");
    expect(quiet.summary).toBe("/: no errors");
  });

  it("says so when there is no preview, or when it cannot be shown", async () => {
    ws = await tempWs();
    expect((await call(previewTool, {}, ctxFor(ws))).isError).toBe(true);
    const failing: PreviewService = { show: async () => Promise.reject(new Error("the page did not finish loading in 10 s")) };
    const r = await call(previewTool, {}, { ...ctxFor(ws), preview: failing });
    expect(r.isError).toBe(true);
    expect(r.output).toContain("the page did not finish loading in 10 s");
  });

  it("runs the page's scripts, so it is offered in Agent mode and not in the read-only modes", () => {
    expect(isOnSurface("act", previewTool)).toBe(true);
    expect(isOnSurface("plan", previewTool)).toBe(false);
    expect(isOnSurface("review", previewTool)).toBe(false);
  });
});
