/**
 * Programs run in the tab (python3, node) are the workspace's code — a cloned project's scripts, a
 * test the agent wrote — and must not reach what the app keeps for the user: every workspace and
 * session in the app's IndexedDB, its caches, its server routes, or the network. They run in
 * workers inside an opaque-origin sandbox with no connection allowed
 * (lib/runtimes/sandbox/program-sandbox.ts); here a program tries, from inside, as a hostile
 * one would.
 */
import { test, expect, createWorkspace, openTerminal, terminalRow as row, runInTerminal as run } from "./fixtures";

test("a node program cannot open the app's storage or reach the app's server, and still works on the workspace", async ({ page }) => {
  await createWorkspace(page, "Isolated node");
  await openTerminal(page);
  const origin = await page.evaluate(() => location.origin);
  // The page itself does hold the workspaces there: the program is refused, not merely unlucky.
  expect(await page.evaluate(async () => (await indexedDB.databases()).length)).toBeGreaterThan(0);

  await run(page, `node -e "try { indexedDB.open('probe'); console.log('idb: opened') } catch (e) { console.log('idb: refused ' + e.name) }"`);
  await expect(row(page, /^idb: refused SecurityError\s*$/)).toHaveCount(1, { timeout: 30_000 });
  await run(page, `node -e "console.log('origin: ' + self.origin + ', caches: ' + typeof caches)"`);
  await expect(row(page, /^origin: null, caches: undefined\s*$/)).toHaveCount(1);
  await run(page, `node -e "fetch('${origin}/api/shares').then((r) => console.log('server: answered ' + r.status), (e) => console.log('server: refused ' + e.name + ' ' + /no network access/.test(e.message)))"`);
  // Refused, with a message that says why rather than the platform's "Failed to fetch".
  await expect(row(page, /^server: refused TypeError true\s*$/)).toHaveCount(1, { timeout: 30_000 });

  // What it is for still works: it reads and writes the workspace.
  await run(page, `node -e "require('fs').writeFileSync('made-by-node.txt', 'ok\\n')" && cat made-by-node.txt`);
  await expect(row(page, /^ok\s*$/)).toHaveCount(1);
});

test("a python3 program cannot open the app's storage either, and Ctrl-C still raises KeyboardInterrupt inside it", async ({ page }) => {
  await createWorkspace(page, "Isolated python");
  await openTerminal(page);

  // Pyodide's bridge to the worker's JavaScript global scope is how Python code would reach it.
  await run(page, `python3 -c "from pyodide.code import run_js; print(run_js('try { indexedDB.open(\\"probe\\"); \\"idb: opened\\" } catch (e) { \\"idb: refused \\" + e.name }'))"`);
  await expect(row(page, /^idb: refused SecurityError\s*$/)).toHaveCount(1, { timeout: 90_000 });
  await run(page, `python3 -c "import js; print('origin:', js.self.origin)"`);
  await expect(row(page, /^origin: null\s*$/)).toHaveCount(1);

  // The interrupt cell lives inside the sandbox and still reaches the interpreter.
  await run(page, "python3 -c 'while True: pass'");
  await page.waitForTimeout(1000);
  await page.keyboard.press("Control+c");
  await expect(row(page, /^KeyboardInterrupt\s*$/)).toHaveCount(1, { timeout: 20_000 });
});
