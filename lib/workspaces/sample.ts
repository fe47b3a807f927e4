/** The small built-in sample project a new workspace can start from. */
export const SAMPLE_PROJECT: Record<string, string> = {
  "README.md": `# Sample project

A tiny TypeScript project to try Tabula on: open a file, edit it, save with Ctrl+S,
search with Ctrl+Shift+F and quick-open with Ctrl+P.
`,
  ".gitignore": `node_modules/
dist/
*.log
`,
  "package.json": `{
  "name": "sample",
  "version": "1.0.0",
  "type": "module",
  "scripts": { "start": "node dist/index.js" }
}
`,
  "src/index.ts": `import { greet } from "./greet";

console.log(greet("world"));
`,
  "src/greet.ts": `export function greet(name: string): string {
  return \`Hello, \${name}!\`;
}
`,
  "src/math/sum.ts": `export const sum = (values: number[]): number => values.reduce((a, b) => a + b, 0);
`,
  "docs/notes.md": `# Notes

- Checkpoints, the terminal and the agent build on this workspace.
`,
};
