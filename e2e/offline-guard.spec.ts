import { test, expect, guardOffline } from "./fixtures";

/**
 * The offline guard itself: a page, a WebSocket, a dedicated Web Worker and a service worker
 * each try to reach another host; the guard must record (and stop) every one of them. Run in a
 * context of its own so the leaks land in this test's list, not the fixture's.
 */
test("the offline guard sees requests from the page, WebSockets, Web Workers and service workers", async ({ browser, baseURL }) => {
  const leaks: string[] = [];
  const context = await browser.newContext();
  await guardOffline(context, leaks);
  // A same-origin service worker script (the app has none of its own): on install it fetches.
  await context.route("**/__e2e-probe-sw.js", (route) =>
    route.fulfill({
      contentType: "text/javascript",
      body: `self.addEventListener("install", (e) => e.waitUntil(fetch("http://sw.example.invalid/from-service-worker").catch(() => undefined)));`,
    }),
  );
  const page = await context.newPage();
  await page.goto(`${baseURL}/`);
  await page.evaluate(async () => {
    await fetch("http://page.example.invalid/from-page").catch(() => undefined);
    await new Promise<void>((resolve) => {
      const ws = new WebSocket("ws://ws.example.invalid/socket");
      ws.onclose = ws.onerror = () => resolve();
    });
    const src = `fetch("http://worker.example.invalid/from-worker").catch(() => undefined).then(() => postMessage("done"));`;
    const worker = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
    await new Promise((resolve) => (worker.onmessage = resolve));
    await navigator.serviceWorker.register("/__e2e-probe-sw.js");
  });
  await expect.poll(() => [...leaks].sort()).toEqual([
    "http://page.example.invalid/from-page",
    "http://sw.example.invalid/from-service-worker",
    "http://worker.example.invalid/from-worker",
    "ws://ws.example.invalid/socket",
  ]);
  await context.close();
});
