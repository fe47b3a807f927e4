import { describe, expect, it } from "vitest";
import { checkGitProxyRequest, isGitResponseType } from "../../lib/server/git-proxy-policy";

describe("git proxy policy", () => {
  it("forwards the smart-HTTP requests of a clone, a fetch and a push", () => {
    expect(checkGitProxyRequest("GET", "https://example.com/o/r.git/info/refs?service=git-upload-pack", null)).toMatchObject({ ok: true, service: "git-upload-pack" });
    expect(checkGitProxyRequest("POST", "http://127.0.0.1:9/r.git/git-upload-pack", "application/x-git-upload-pack-request")).toMatchObject({ ok: true, service: "git-upload-pack" });
    expect(checkGitProxyRequest("GET", "https://example.com/o/r.git/info/refs?service=git-receive-pack", null)).toMatchObject({ ok: true, service: "git-receive-pack" });
    expect(checkGitProxyRequest("POST", "https://example.com/o/r.git/git-receive-pack", "application/x-git-receive-pack-request")).toMatchObject({ ok: true, service: "git-receive-pack" });
  });

  it("refuses other services, other paths, other schemes, credentials and other methods", () => {
    const refused = [
      checkGitProxyRequest("GET", "https://example.com/o/r.git/info/refs?service=git-upload-archive", null),
      checkGitProxyRequest("POST", "https://example.com/o/r.git/git-receive-pack", "application/x-git-upload-pack-request"),
      checkGitProxyRequest("GET", "https://example.com/secret", null),
      checkGitProxyRequest("GET", "https://example.com/r.git/info/refs?service=git-upload-pack&leak=1", null),
      checkGitProxyRequest("GET", "https://example.com/r.git/info/refs?leak=1&service=git-upload-pack", null),
      checkGitProxyRequest("GET", "file:///etc/passwd", null),
      checkGitProxyRequest("GET", "https://user:pw@example.com/r.git/info/refs?service=git-upload-pack", null),
      checkGitProxyRequest("DELETE", "https://example.com/r.git/git-upload-pack", null),
      checkGitProxyRequest("POST", "https://example.com/r.git/git-upload-pack", "text/plain"),
      checkGitProxyRequest("GET", null, null),
      checkGitProxyRequest("GET", "not a url", null),
    ];
    for (const r of refused) expect(r.ok).toBe(false);
    expect(refused.map((r) => (r.ok ? 0 : r.status))).toEqual([403, 415, 403, 403, 403, 400, 400, 405, 415, 400, 400]);
  });

  it("only forwards answers that are git's", () => {
    expect(isGitResponseType("GET", "application/x-git-upload-pack-advertisement")).toBe(true);
    expect(isGitResponseType("GET", "text/html; charset=utf-8")).toBe(false);
    expect(isGitResponseType("POST", "application/x-git-upload-pack-result")).toBe(true);
    expect(isGitResponseType("GET", "application/x-git-receive-pack-advertisement", "git-receive-pack")).toBe(true);
    expect(isGitResponseType("POST", "application/x-git-receive-pack-result", "git-receive-pack")).toBe(true);
    // An answer of the other service is not what was asked for.
    expect(isGitResponseType("GET", "application/x-git-upload-pack-advertisement", "git-receive-pack")).toBe(false);
  });
});
