import { test, expect, createWorkspace, treeItem, terminalScreen as screen, terminalRow as row, runInTerminal as run } from "./fixtures";
import type { Page } from "@playwright/test";

test("the terminal runs commands over the workspace, with git, history and Ctrl-C", async ({ page }) => {
  await createWorkspace(page, "Terminal test");
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(screen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();

  await run(page, "ls");
  await expect(screen(page)).toContainText("README.md");
  await run(page, "echo hi > a.txt");
  await expect(treeItem(page, "a.txt")).toBeVisible();
  await run(page, "cat a.txt | wc -c");
  await expect(row(page, /^\s*3\s*$/)).toHaveCount(1);
  await run(page, "git status");
  await expect(screen(page)).toContainText("Untracked files:");
  await run(page, "git add -A && git commit -m x");
  await expect(screen(page)).toContainText("1 file changed");
  await run(page, "git log --oneline");
  await expect(screen(page)).toContainText(/[0-9a-f]{7} x/);
  await expect(treeItem(page, "a.txt").locator(".git")).toHaveCount(0);

  // History: the up arrow brings back the last command.
  await page.keyboard.press("ArrowUp");
  await expect(row(page, /\$ git log --oneline\s*$/)).toHaveCount(2);
  await page.keyboard.press("Control+u");

  // Ctrl-C stops a long command and the shell stays usable.
  const start = Date.now();
  await run(page, "sleep 30");
  await page.waitForTimeout(500);
  await page.keyboard.press("Control+c");
  await expect(screen(page)).toContainText("^C");
  await run(page, "echo after-interrupt");
  await expect(screen(page)).toContainText("after-interrupt");
  expect(Date.now() - start).toBeLessThan(15_000);

  // A file path in the output opens in the editor on click.
  await run(page, "ls src/greet.ts");
  // xterm detects links under the mouse: move over the path, then click where it is drawn.
  const box = (await row(page, /^src\/greet\.ts\s*$/).last().boundingBox())!;
  await page.mouse.move(box.x + 20, box.y + box.height / 2);
  await page.waitForTimeout(300);
  await page.mouse.click(box.x + 20, box.y + box.height / 2);
  await expect(page.getByRole("tab", { name: /greet\.ts/ })).toBeVisible();
});

/** The visible terminal's rows (several tabs: only the active one is shown). */
function activeScreen(page: Page) {
  return page.locator('[data-testid="terminal"]:visible .xterm-rows');
}

test("Tab completes file names and commands in the terminal", async ({ page }) => {
  await createWorkspace(page, "Completion");
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(screen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await page.keyboard.type("cat src/gr");
  await page.keyboard.press("Tab");
  await expect(row(page, /\$ cat src\/greet\.ts\s*$/)).toHaveCount(1);
  await page.keyboard.press("Enter");
  await expect(screen(page)).toContainText("export function greet");
  // A command name completes too.
  await page.keyboard.type("ech");
  await page.keyboard.press("Tab");
  await page.keyboard.type("completed-ok");
  await page.keyboard.press("Enter");
  await expect(row(page, /^completed-ok\s*$/)).toHaveCount(1);
});

test("several terminal tabs, each with its own working directory", async ({ page }) => {
  await createWorkspace(page, "Tabs");
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(screen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
  await run(page, "cd src && pwd");
  await expect(activeScreen(page)).toContainText("/workspace/src");

  await page.getByRole("button", { name: "New terminal" }).click();
  const tabs = page.getByRole("tablist", { name: "Terminals" }).getByRole("tab");
  await expect(tabs).toHaveCount(2);
  await expect(tabs.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(activeScreen(page)).toContainText("$");
  await page.locator('[data-testid="terminal"]:visible').click();
  await run(page, "pwd && echo second-tab");
  await expect(activeScreen(page)).toContainText("second-tab");
  await expect(activeScreen(page)).not.toContainText("/workspace/src");

  await tabs.nth(0).click();
  await expect(activeScreen(page)).not.toContainText("second-tab");
  await page.locator('[data-testid="terminal"]:visible').click();
  await run(page, "pwd && echo first-again");
  await expect(activeScreen(page)).toContainText("first-again");
  await expect(activeScreen(page).locator(":scope > div").filter({ hasText: /^\/workspace\/src\s*$/ })).toHaveCount(2);

  await page.getByRole("button", { name: "Close terminal 2" }).click();
  await expect(tabs).toHaveCount(1);
});

/** Paste as the browser does on Ctrl+V: a paste event with the text on xterm's input. */
async function paste(page: Page, text: string) {
  await page.getByTestId("terminal").locator("textarea").evaluate((el, t) => {
    const data = new DataTransfer();
    data.setData("text/plain", t);
    el.dispatchEvent(new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }));
  }, text);
}

test("a multi-line paste runs each line in order; a long line wraps and stays editable", async ({ page }) => {
  await createWorkspace(page, "Terminal paste");
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(screen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();

  // Three commands and a fourth line still being typed.
  await paste(page, "echo first-line\necho second-line > p.txt\ncat p.txt | tr a-z A-Z\necho par");
  await expect(row(page, /^SECOND-LINE\s*$/)).toHaveCount(1);
  await expect(row(page, /^first-line\s*$/)).toHaveCount(1);
  await expect(treeItem(page, "p.txt")).toBeVisible();
  // The last line was not run: it waits at the prompt, and typing goes on from its end.
  await expect(row(page, /\$ echo par\s*$/)).toHaveCount(1);
  await page.keyboard.type("tial-中文");
  await page.keyboard.press("Enter");
  await expect(row(page, /^partial-中文\s*$/)).toHaveCount(1);
  const text = await screen(page).innerText();
  expect(text.indexOf("first-line")).toBeLessThan(text.indexOf("SECOND-LINE"));

  // A line longer than the terminal wraps; editing its start (on the first row) keeps the rest.
  // Longer than any row of the panel (at most ~200 columns at 1280 px).
  const word = "w".repeat(250);
  await page.keyboard.type(`echo ${word}`);
  await page.keyboard.press("Home");
  for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
  await page.keyboard.type("A-");
  await page.keyboard.press("Enter");
  // The wrapped input line, then the command's output.
  await expect.poll(async () => (await screen(page).innerText()).replace(/\s+/g, "")).toContain(`$echoA-${word}A-${word}`);
});
