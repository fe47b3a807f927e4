/**
 * Web preview figures (`npm run bench`, hooked in by scripts/bench.mjs from bench/runtimes/), in
 * Chromium through the UI as a person uses it: the workspace's index.html open in the editor and
 * in the preview; a character typed and Ctrl+S pressed; the time until the previewed page shows
 * it (target ≤ 300 ms). The same run measures the browser's own floor for comparison: the same
 * page reloaded from a plain node:http static server in a frame of its own.
 */
import http from "node:http";
import { workspaceWithTerminal } from "./workbench-page.mjs";

const RUNS = 7;
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const PAGE = "<!doctype html><html><head><title>Bench</title></head><body><p id=m>m</p></body></html>";

async function saveToVisible(browser, baseURL) {
  const { context, page } = await workspaceWithTerminal(browser, baseURL, "Preview bench");
  try {
    await page.keyboard.type(`printf '${PAGE}' > index.html`);
    await page.keyboard.press("Enter");
    await page.locator('[role="treeitem"][data-path="index.html"]').click();
    await page.getByRole("button", { name: "Preview", exact: true }).click();
    const site = () => page.frames().find((f) => /\/preview\/[a-z0-9]+\//.test(f.url()));
    const firstMs = await (async () => {
      const t0 = Date.now();
      for (;;) {
        const f = site();
        if (f && (await f.locator("#m").count().catch(() => 0))) return Date.now() - t0;
        await page.waitForTimeout(20);
      }
    })();
    const editor = page.getByTestId("code-editor").locator('.monaco-editor[data-uri="file:///index.html"]');
    await editor.locator(".view-lines").click({ position: { x: 8, y: 6 } });
    const times = [];
    for (let i = 1; i <= RUNS; i++) {
      // Just after "<p id=m>m": the paragraph's text grows by one x per save.
      await page.keyboard.press("Control+End");
      for (let k = 0; k < "</p></body></html>".length; k++) await page.keyboard.press("ArrowLeft");
      await page.keyboard.type("x");
      const want = "m" + "x".repeat(i);
      const t0 = Date.now();
      await page.keyboard.press("Control+s");
      for (;;) {
        const f = site();
        const text = f ? await f.evaluate(() => document.getElementById("m")?.textContent ?? "").catch(() => "") : "";
        if (text === want) break;
        await new Promise((r) => setTimeout(r, 5));
      }
      times.push(Date.now() - t0);
    }
    return { firstLoadMs: firstMs, saveToVisibleMedianMs: median(times), saveToVisibleRunsMs: times };
  } finally {
    await context.close();
  }
}

/** The floor: the same page reloaded from a static server, no service worker, no workspace read. */
async function staticReload(browser) {
  const server = http.createServer((_req, res) => res.writeHead(200, { "content-type": "text/html", "cache-control": "no-store" }).end(PAGE));
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const context = await browser.newContext();
  const page = await context.newPage();
  try {
    await page.goto(`http://127.0.0.1:${server.address().port}/`);
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t0 = Date.now();
      await page.reload({ waitUntil: "load" });
      await page.locator("#m").waitFor();
      times.push(Date.now() - t0);
    }
    return { reloadMedianMs: median(times) };
  } finally {
    await context.close();
    server.close();
  }
}

export async function run({ browser, baseURL } = {}) {
  if (!browser) return { skipped: "no browser given" };
  const chromium = await saveToVisible(browser, baseURL).catch((e) => ({ error: String(e?.stack ?? e) }));
  const floor = await staticReload(browser).catch((e) => ({ error: String(e?.stack ?? e) }));
  return { chromium, staticServer: floor, targets: { saveToVisibleMsMax: 300 } };
}
