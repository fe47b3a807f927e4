/**
 * Workbench figures: page load to editor interactive, first-load JS of /w/<id> (gzipped, with
 * Monaco measured separately as the lazy chunk it must be), the time to open a 1 MB file, and
 * the terminal's round trip: Enter to the next prompt for an empty line and for `echo hi`
 * (target ≤ 50 ms), next to native bash running `echo hi` in the same run.
 */
import { execFileSync } from "node:child_process";
import zlib from "node:zlib";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { zipSync, strToU8 } from "fflate";

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function megabyteFile() {
  const line = "const value = 'the quick brown fox jumps over the lazy dog';\n";
  return line.repeat(Math.ceil((1024 * 1024) / line.length)).slice(0, 1024 * 1024);
}

export async function run({ browser, baseURL }) {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-bench-"));
  const zipPath = path.join(dir, "bench.zip");
  fs.writeFileSync(zipPath, zipSync({ "bench/small.ts": strToU8("export const x = 1;\n"), "bench/big.ts": strToU8(megabyteFile()) }));
  await page.goto("/");
  await page.getByTestId("import-zip-input").setInputFiles(zipPath);
  await page.waitForURL(/\/w\//);
  const wsUrl = new URL(page.url()).pathname;

  // First-load JS: the scripts the HTML of /w/<id> asks for, gzipped as a server would send them.
  const html = await (await fetch(baseURL + wsUrl)).text();
  const scripts = [...html.matchAll(/<script[^>]+src="([^"]+\.js)"/g)].map((m) => m[1]);
  let firstLoadGzip = 0;
  for (const src of new Set(scripts)) {
    const body = Buffer.from(await (await fetch(new URL(src, baseURL))).arrayBuffer());
    firstLoadGzip += zlib.gzipSync(body, { level: 9 }).length;
  }

  // Load to editor interactive, several runs (fresh navigation each time).
  const loads = [];
  let lazyJs = 0;
  for (let i = 0; i < 5; i++) {
    const seen = new Map();
    const onResponse = async (res) => {
      if (res.url().endsWith(".js")) seen.set(res.url(), (await res.body().catch(() => Buffer.alloc(0))).length);
    };
    page.on("response", onResponse);
    await page.goto(`${wsUrl}?open=${encodeURIComponent("small.ts")}`);
    await page.locator('[data-testid="code-editor"] .view-line').first().waitFor();
    await page.keyboard.press("End");
    loads.push(await page.evaluate(() => performance.now()));
    page.off("response", onResponse);
    if (i === 0) {
      for (const [url, size] of seen) if (!scripts.some((s) => url.endsWith(s))) lazyJs += size;
    }
  }

  // Open a 1 MB file from the tree.
  const opens = [];
  for (let i = 0; i < 3; i++) {
    await page.goto(wsUrl);
    await page.locator('[role="treeitem"][data-path="big.ts"]').waitFor();
    const start = Date.now();
    await page.locator('[role="treeitem"][data-path="big.ts"]').click();
    await page.locator('[data-testid="code-editor"] .view-line', { hasText: "quick brown fox" }).first().waitFor();
    opens.push(Date.now() - start);
    // Close it so the next run opens it fresh.
    await page.getByRole("button", { name: "Close big.ts" }).click();
  }
  const terminal = await terminalRoundTrip(page, wsUrl);
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    ...terminal,
    loadToEditorInteractiveMs: Math.round(median(loads)),
    loadToEditorInteractiveRunsMs: loads.map(Math.round),
    firstLoadJsKbGzip: +(firstLoadGzip / 1024).toFixed(1),
    firstLoadScripts: scripts.length,
    lazyJsLoadedAfterStartKbRaw: +(lazyJs / 1024).toFixed(0),
    open1MbFileMs: median(opens),
    open1MbFileRunsMs: opens,
  };
}

/** Enter to the next prompt drawn: from the key event to the DOM mutation that shows the prompt, timed in the page. */
export async function terminalRoundTrip(page, wsUrl) {
  const once = await terminalCommandTimer(page, wsUrl);
  const empty = [];
  const echo = [];
  for (let i = 0; i < 9; i++) empty.push(await once(""));
  for (let i = 0; i < 9; i++) echo.push(await once("echo hi"));
  const native = [];
  for (let i = 0; i < 9; i++) {
    const t0 = process.hrtime.bigint();
    execFileSync("bash", ["-c", "echo hi"]);
    native.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return {
    terminalEmptyCommandMs: median(empty),
    terminalEmptyCommandRunsMs: empty,
    terminalEchoMs: median(echo),
    terminalEchoRunsMs: echo,
    terminalTargetMs: 50,
    nativeBashEchoMs: +median(native).toFixed(1),
  };
}

/**
 * Opens the workspace's terminal and returns `time(line)`: types the line, then times Enter to the
 * next prompt drawn (key event → the DOM mutation that shows it), in the page.
 */
export async function terminalCommandTimer(page, wsUrl) {
  await page.goto(wsUrl);
  await page.locator('[role="treeitem"]').first().waitFor({ timeout: 60_000 });
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  const term = page.getByTestId("terminal");
  await term.locator(".xterm-rows").waitFor();
  await term.click();
  const countPrompts = `() => [...document.querySelectorAll('[data-testid="terminal"] .xterm-rows > div')].filter((d) => /~[^$]*\\$(\\s|$)/.test((d.textContent ?? "").replace(/\\u00a0/g, " "))).length`;
  await page.waitForFunction(`(${countPrompts})() >= 1`);
  return async (line) => {
    await page.keyboard.press("Control+l");
    await page.waitForFunction(`(${countPrompts})() === 1`);
    if (line) await page.keyboard.type(line);
    await page.evaluate((src) => {
      const count = new Function(`return (${src})()`);
      const rt = (window.__roundTrip = {});
      document.addEventListener("keydown", (e) => e.key === "Enter" && (rt.t0 = performance.now()), { capture: true, once: true });
      const mo = new MutationObserver(() => {
        if (rt.t0 !== undefined && count() === 2) {
          rt.t1 = performance.now();
          mo.disconnect();
        }
      });
      mo.observe(document.querySelector('[data-testid="terminal"] .xterm-rows'), { childList: true, subtree: true, characterData: true });
    }, countPrompts);
    await page.keyboard.press("Enter");
    await page.waitForFunction(() => window.__roundTrip.t1 !== undefined, undefined, { timeout: 120_000 });
    return page.evaluate(() => Math.round((window.__roundTrip.t1 - window.__roundTrip.t0) * 10) / 10);
  };
}
