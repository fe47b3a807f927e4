import { test, expect } from "./fixtures";
import { startGitHttpServer } from "./helpers/git-http-server";

// The e2e server allows exactly 127.0.0.1 (TABULA_GIT_PROXY_ALLOW=127.0.0.1): every other private or
// loopback address stays refused, and only the app's own pages may use the proxy.

test("the clone proxy refuses a loopback address the operator did not allow, and says why", async ({ page }) => {
  const server = await startGitHttpServer({ "a.txt": "a\n" });
  try {
    await page.goto("/");
    const form = page.getByRole("form", { name: "Clone repository" });
    await form.getByLabel("Repository URL").fill(server.url.replace("127.0.0.1", "127.0.0.2"));
    await form.getByRole("button", { name: "Clone" }).click();
    const alert = form.getByRole("alert");
    await expect(alert).toContainText("resolves to 127.0.0.2 (loopback range), which this server does not reach");
    await expect(alert).toContainText("TABULA_GIT_PROXY_ALLOW");
    await expect(page).toHaveURL(/\/$/);
  } finally {
    await server.close();
  }
});

test("the clone proxy answers only the app's own pages", async ({ request, baseURL }) => {
  const server = await startGitHttpServer({ "a.txt": "a\n" });
  try {
    const target = `/api/git-proxy?url=${encodeURIComponent(`${server.url}/info/refs?service=git-upload-pack`)}`;
    const fromElsewhere = await request.get(target, { headers: { origin: "http://evil.example", "sec-fetch-site": "cross-site" } });
    expect(fromElsewhere.status()).toBe(403);
    const sibling = await request.get(target, { headers: { "sec-fetch-site": "same-site" } });
    expect(sibling.status()).toBe(403);
    const own = await request.get(target, { headers: { origin: baseURL!, "sec-fetch-site": "same-origin" } });
    expect(own.status()).toBe(200);
    expect(own.headers()["content-type"]).toBe("application/x-git-upload-pack-advertisement");
  } finally {
    await server.close();
  }
});
