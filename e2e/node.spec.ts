import { test, expect, createWorkspace, treeItem, terminalScreen as screen, terminalRow as row, runInTerminal as run } from "./fixtures";
import type { Page } from "@playwright/test";

async function openTerminal(page: Page, name: string) {
  await createWorkspace(page, name);
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(screen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
}

test("node in the terminal runs an ES module that imports a workspace module and node:fs, a TypeScript file, and writes a file cat shows", async ({ page }) => {
  await openTerminal(page, "Node");

  await run(page, "echo from-the-note > note.txt");
  await run(page, `printf 'export const greet = (n) => "hi " + n;\\n' > lib.mjs`);
  await run(page, `printf 'import { readFileSync } from "node:fs";\\nimport { greet } from "./lib.mjs";\\nconsole.log(greet("tab"), readFileSync("note.txt", "utf8").trim());\\n' > main.mjs`);
  await expect(treeItem(page, "main.mjs")).toBeVisible();
  await run(page, "node main.mjs");
  await expect(row(page, /^hi tab from-the-note\s*$/)).toHaveCount(1, { timeout: 30_000 });

  await run(page, `printf 'interface Box { size: number }\\nconst box: Box = { size: 6 * 7 };\\nconsole.log("ts says", box.size as number);\\n' > calc.ts`);
  await run(page, "node calc.ts");
  await expect(row(page, /^ts says 42\s*$/)).toHaveCount(1, { timeout: 30_000 });

  await run(page, `node -e 'require("fs").writeFileSync("made-by-node.txt", "written by node\\n")'`);
  await expect(treeItem(page, "made-by-node.txt")).toBeVisible();
  await run(page, "cat made-by-node.txt");
  await expect(row(page, /^written by node\s*$/)).toHaveCount(1);

  // An uncaught error: Node's report and exit code 1.
  await run(page, `node -e 'throw new Error("boom from node")'`);
  await expect(screen(page)).toContainText("Error: boom from node");
  await run(page, "echo $?");
  await expect(row(page, /^1\s*$/)).toHaveCount(1);
});

test("Ctrl-C stops an endless node loop at once, and node works again after", async ({ page }) => {
  await openTerminal(page, "Node Ctrl-C");
  await run(page, `node -e 'console.log("warm")'`);
  await expect(row(page, /^warm\s*$/)).toHaveCount(1, { timeout: 30_000 });

  await run(page, `node -e 'console.log("spinning"); while (true) {}'`);
  await expect(row(page, /^spinning\s*$/)).toHaveCount(1);
  const start = Date.now();
  await page.keyboard.press("Control+c");
  await expect(screen(page)).toContainText("^C");
  await run(page, `node -e 'console.log("alive")'`);
  // "At once" against the alternative, the shell's 60 s time limit: a bound that tells the two
  // apart without timing the machine (CI's two loaded cores took 3.7 s for the fresh node).
  await expect(row(page, /^alive\s*$/)).toHaveCount(1, { timeout: 10_000 });
  expect(Date.now() - start).toBeLessThan(10_000);
});

test("node --test runs a suite with a passing and a failing test: both reported, exit code 1", async ({ page }) => {
  await openTerminal(page, "Node tests");
  await run(page, `printf 'const { test } = require("node:test");\\nconst assert = require("node:assert");\\ntest("passes", () => assert.equal(1 + 1, 2));\\ntest("fails", () => assert.equal(1 + 1, 3));\\n' > sum.test.cjs`);
  await expect(treeItem(page, "sum.test.cjs")).toBeVisible();
  // The full report is taller than the terminal: keep it in a file, then show its key lines.
  await run(page, "node --test > report.txt; echo exit=$?");
  await expect(row(page, /^exit=1\s*$/)).toHaveCount(1, { timeout: 30_000 });
  await run(page, `grep -E '^(✔|✖|ℹ (pass|fail) )' report.txt`);
  await expect(row(page, /^✔\s*passes \(/)).toHaveCount(1);
  await expect(row(page, /^✖\s*fails \(/)).toHaveCount(2); // in the run, and again under "failing tests"
  await expect(row(page, /^ℹ\s*pass 1\s*$/)).toHaveCount(1);
  await expect(row(page, /^ℹ\s*fail 1\s*$/)).toHaveCount(1);
});
