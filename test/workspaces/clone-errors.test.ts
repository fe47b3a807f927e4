import { describe, expect, it } from "vitest";
import { describeCloneError } from "../../lib/workspaces/clone";

const httpError = (statusCode: number, response?: string) => ({ code: "HttpError", data: { statusCode, response } });

describe("clone errors in the user's terms", () => {
  it("shows the proxy's own sentence for its refusals", () => {
    const refusal = "127.0.0.1 resolves to 127.0.0.1 (loopback range), which this server does not reach. The operator can allow it with TABULA_GIT_PROXY_ALLOW.";
    expect(describeCloneError(httpError(403, JSON.stringify({ error: refusal })), "http://127.0.0.1/r.git")).toBe(refusal);
    expect(describeCloneError(httpError(502, JSON.stringify({ error: "x redirected the request; redirects are not followed." })), "u")).toMatch(/redirects are not followed/);
    expect(describeCloneError(httpError(504, JSON.stringify({ error: "x did not answer within 120 s." })), "u")).toMatch(/did not answer/);
  });

  it("keeps the generic sentences when there is no detail", () => {
    expect(describeCloneError(httpError(404), "http://h/r.git")).toBe("No git repository at http://h/r.git (HTTP 404).");
    expect(describeCloneError(httpError(403), "http://h/r.git")).toMatch(/refused access/);
    expect(describeCloneError(httpError(401), "http://h/r.git")).toMatch(/asks for credentials.*none were accepted/);
    expect(describeCloneError({ code: "UserCanceledError" }, "http://h:8080/r.git")).toBe("Clone cancelled: no credentials were given for h:8080.");
  });
});
