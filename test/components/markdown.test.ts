/**
 * The agent's Markdown view rendered to HTML (react-dom/server): GitHub-flavoured tables from a
 * model become real <table>s, and raw HTML and javascript: links stay out.
 */
import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { Markdown } from "../../components/agent/Markdown";

const render = (text: string) => renderToStaticMarkup(createElement(Markdown, { text }));

describe("Markdown", () => {
  it("renders a GFM table as a <table> with header and body cells", () => {
    const html = render("Results:\n\n| file | lines |\n| --- | ---: |\n| a.ts | 12 |\n| b.ts | 3 |\n");
    expect(html).toContain("<table>");
    expect(html).toMatch(/<thead><tr><th>file<\/th><th style="text-align:right">lines<\/th><\/tr><\/thead>/);
    expect(html).toMatch(/<tbody><tr><td>a\.ts<\/td><td style="text-align:right">12<\/td><\/tr>/);
    expect(html).not.toContain("| --- |");
  });

  it("renders task lists and strikethrough, and still drops raw HTML and script links", () => {
    const html = render("- [x] done\n- [ ] todo\n\n~~old~~ <b>raw</b> [x](javascript:alert(1))");
    expect(html).toContain('type="checkbox"');
    expect(html).toContain("<del>old</del>");
    expect(html).not.toContain("<b>");
    expect(html).not.toContain("javascript:");
  });
});
