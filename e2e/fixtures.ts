import { test as base, expect, type BrowserContext, type Page } from "@playwright/test";

/**
 * Every e2e test fails if the page tries to reach anything but this machine: the IDE must work
 * offline (no CDN, no telemetry). Requests and WebSockets to other hosts are aborted and
 * recorded, and so is any request the context reports that routing did not see (from a Web
 * Worker or a service worker): e2e/offline-guard.spec.ts checks each of these paths.
 */
export function isLocalUrl(raw: string): boolean {
  const url = new URL(raw);
  return url.protocol === "data:" || url.protocol === "blob:" || ["127.0.0.1", "localhost", "[::1]"].includes(url.hostname);
}

/** Abort and record every request and WebSocket of `context` that leaves this machine. */
export async function guardOffline(context: BrowserContext, leaks: string[]): Promise<void> {
  const record = (url: string) => {
    if (!leaks.includes(url)) leaks.push(url);
  };
  await context.route(/.*/, (route) => {
    if (isLocalUrl(route.request().url())) return route.continue();
    record(route.request().url());
    return route.abort("blockedbyclient");
  });
  await context.routeWebSocket(/.*/, (ws) => {
    if (isLocalUrl(ws.url())) {
      ws.connectToServer();
      return;
    }
    record(ws.url());
    void ws.close({ code: 1008, reason: "e2e: no network beyond localhost" });
  });
  // A second net: whatever the browser reports, routed or not (e.g. a service worker's fetch).
  context.on("request", (request) => {
    if (!isLocalUrl(request.url())) record(request.url());
  });
}

export const test = base.extend<{ offlineGuard: string[] }>({
  offlineGuard: [
    async ({ context }, use) => {
      const leaks: string[] = [];
      await guardOffline(context, leaks);
      await use(leaks);
      expect(leaks, "requests that left localhost").toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };

/** Create a workspace from the start page and wait for the workbench to open. */
export async function createWorkspace(page: Page, name: string, template: "Sample project" | "Empty" = "Sample project") {
  await page.goto("/");
  const form = page.getByRole("form", { name: "Create workspace" });
  await form.getByLabel("Workspace name").fill(name);
  await form.getByLabel("Template").selectOption({ label: template });
  await form.getByRole("button", { name: "Create" }).click();
  await page.waitForURL(/\/w\/[a-z2-7]{20}$/);
  await expect(page.getByTestId("workspace-name")).toHaveText(name);
  return page.url();
}

export function treeItem(page: Page, path: string) {
  return page.locator(`[role="treeitem"][data-path="${path}"]`);
}

/** Make sure a folder of the tree is expanded (a click would collapse one the workbench remembered open). */
export async function expandFolder(page: Page, path: string) {
  const row = treeItem(page, path);
  await expect(row).toBeVisible();
  if ((await row.getAttribute("aria-expanded")) !== "true") await row.click();
  await expect(row).toHaveAttribute("aria-expanded", "true");
}

/** Type into the Monaco editor the way a person does: click into it, then keystrokes. */
/**
 * Clicks into the editor and types. One Monaco editor serves every tab and swaps to a new file
 * only once it has been read back, so pass `path` when a file was just opened or created: keys
 * sent before the swap would land in the previous file.
 */
export async function typeInEditor(page: Page, text: string, path?: string) {
  const editors = page.getByTestId("code-editor").locator(path ? `.monaco-editor[data-uri="file:///${path}"]` : ".monaco-editor");
  const editor = editors.first();
  await editor.waitFor();
  await editor.locator(".view-lines").click();
  await page.keyboard.type(text);
}

export async function editorText(page: Page): Promise<string> {
  return page.evaluate(() => {
    // Monaco renders lines absolutely positioned and not always in DOM order: sort by their top.
    const lines = Array.from(document.querySelectorAll<HTMLElement>('[data-testid="code-editor"] .view-line'));
    lines.sort((a, b) => parseFloat(a.style.top) - parseFloat(b.style.top));
    return lines.map((l) => (l.textContent ?? "").replace(/\u00a0/g, " ")).join("\n");
  });
}

/** The terminal's rendered rows. */
export function terminalScreen(page: Page) {
  return page.getByTestId("terminal").locator(".xterm-rows");
}

/** One terminal row whose whole text matches (xterm renders each row as its own element). */
export function terminalRow(page: Page, text: RegExp) {
  return terminalScreen(page).locator(":scope > div").filter({ hasText: text });
}

/** Opens the terminal with Ctrl+` as a person does, waits for its prompt and puts the focus in it. */
export async function openTerminal(page: Page) {
  await page.locator("body").click();
  await page.keyboard.press("Control+`");
  await expect(terminalScreen(page)).toContainText("$", { timeout: 30_000 });
  await page.getByTestId("terminal").click();
}

/** Types a command line into the focused terminal and presses Enter, as a person would. */
export async function runInTerminal(page: Page, command: string) {
  await page.keyboard.type(command);
  await page.keyboard.press("Enter");
}
