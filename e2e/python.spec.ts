import { test, expect, createWorkspace, treeItem, terminalScreen as screen, terminalRow as row, runInTerminal as run } from "./fixtures";
import type { Page } from "@playwright/test";

async function openTerminal(page: Page, name: string) {
  await createWorkspace(page, name);
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(screen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
}

test("python3 in the terminal prints, reads a workspace CSV, and writes a file that cat and the file tree then show", async ({ page }) => {
  await openTerminal(page, "Python");
  // The page is cross-origin isolated (COOP/COEP), which the interrupt buffer needs.
  expect(await page.evaluate(() => globalThis.crossOriginIsolated)).toBe(true);

  // The first run loads CPython (served by the app itself) into its worker.
  await run(page, "python3 -c 'print(6 * 7)'");
  await expect(row(page, /^42\s*$/)).toHaveCount(1, { timeout: 60_000 });

  await run(page, "printf 'name,n\\na,1\\nb,2\\nc,39\\n' > data.csv");
  await expect(treeItem(page, "data.csv")).toBeVisible();
  await run(page, `python3 -c 'import csv; print("total", sum(int(r["n"]) for r in csv.DictReader(open("data.csv"))))'`);
  await expect(row(page, /^total 42\s*$/)).toHaveCount(1);

  await run(page, `python3 -c 'open("report.txt", "w").write("written by python\\n")'`);
  await expect(treeItem(page, "report.txt")).toBeVisible();
  await run(page, "cat report.txt");
  await expect(row(page, /^written by python\s*$/)).toHaveCount(1);

  // Output appears as the program prints it, not when it ends.
  await run(page, `python3 -c 'import time; print("first", flush=True); time.sleep(6); print("second")'`);
  await expect(row(page, /^first\s*$/)).toHaveCount(1);
  await expect(row(page, /^second\s*$/)).toHaveCount(0);
  await expect(row(page, /^second\s*$/)).toHaveCount(1, { timeout: 20_000 });

  // An uncaught exception: its traceback and a failing exit code.
  await run(page, "python3 -c '1/0' || echo exit=$?");
  await expect(screen(page)).toContainText("ZeroDivisionError: division by zero");
  await expect(row(page, /^exit=1\s*$/)).toHaveCount(1);
});

test("Ctrl-C stops an endless Python loop with KeyboardInterrupt (exit 130), and python3 works again after", async ({ page }) => {
  // How fast the stop is belongs to `npm run bench` (bench/runtimes/python.bench.mjs); this checks
  // what happens: the interrupt reaches the program (not a killed worker) and the shell goes on.
  await openTerminal(page, "Python Ctrl-C");
  await run(page, "python3 -c 'print(\"warm\")'");
  await expect(row(page, /^warm\s*$/)).toHaveCount(1, { timeout: 60_000 });

  await run(page, "python3 -c 'while True: pass'");
  // Give the loop time to be running inside the interpreter, not still being set up.
  await page.waitForTimeout(1000);
  await page.keyboard.press("Control+c");
  await expect(screen(page)).toContainText("^C");
  await expect(row(page, /^KeyboardInterrupt\s*$/)).toHaveCount(1, { timeout: 20_000 });
  // One ^C, as a terminal echoes it: the key's echo, not a second one from the shell's result.
  await expect(screen(page)).toContainText(/\^C[^]*KeyboardInterrupt/);
  await expect(row(page, /\^C/)).toHaveCount(1);
  await run(page, "echo exit=$?");
  await expect(row(page, /^exit=130\s*$/)).toHaveCount(1);
  await expect(screen(page)).not.toContainText("file changes were discarded");
  // python3 runs one program at a time: this answer means the loop has really stopped.
  await run(page, "python3 -c 'print(\"alive\")'");
  await expect(row(page, /^alive\s*$/)).toHaveCount(1, { timeout: 30_000 });
});
