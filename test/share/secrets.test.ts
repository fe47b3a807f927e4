import { describe, expect, it } from "vitest";
import { isEnvFile, redactDeep, redactText } from "../../lib/share/secrets";

describe("secret redaction", () => {
  const cases: [string, string, string][] = [
    ["anthropic", "key sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789 here", "key [REDACTED:anthropic-key] here"],
    ["openai", "OPENAI=sk-proj-abcdefghijklmnopqrstuvwx1234", "OPENAI=[REDACTED:openai-key]"],
    ["aws id", "id AKIAIOSFODNN7EXAMPLE.", "id [REDACTED:aws-access-key]."],
    ["aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = [REDACTED:aws-secret]"],
    ["github", "token: ghp_0123456789abcdefghijABCDEFGHIJ012345", "token: [REDACTED:github-token]"],
    ["google", "AIzaSyA-0123456789abcdefghijklmnopqrstu", "[REDACTED:google-api-key]"],
    ["slack", "xoxb-1234567890-abcdefghij", "[REDACTED:slack-token]"],
    ["stripe", "sk_live_0123456789abcdefABCDEF", "[REDACTED:stripe-key]"],
    ["jwt", "auth eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "auth [REDACTED:jwt]"],
    ["bearer", "Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345", "Authorization: Bearer [REDACTED:bearer-token]"],
    ["assigned", 'DB_PASSWORD="correct-horse-battery"', 'DB_PASSWORD="[REDACTED:assigned-secret]"'],
    ["assigned json", '{"apiKey": "0123456789abcdef0123"}', '{"apiKey": "[REDACTED:assigned-secret]"}'],
  ];
  for (const [name, input, expected] of cases) {
    it(`redacts ${name}`, () => {
      const r = redactText(input);
      expect(r.text).toBe(expected);
      expect(r.findings.length).toBeGreaterThan(0);
    });
  }

  it("redacts a whole private key block, even a truncated one", () => {
    const key = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAA\n-----END OPENSSH PRIVATE KEY-----";
    expect(redactText(`before\n${key}\nafter`).text).toBe("before\n[REDACTED:private-key]\nafter");
    expect(redactText("x -----BEGIN RSA PRIVATE KEY-----\nMIIEow").text).toBe("x [REDACTED:private-key]");
  });

  it("leaves ordinary code alone", () => {
    const code = "const token = getToken();\nexport function password(x: string) { return x.length > 8; }\nsk-learn is a library";
    expect(redactText(code)).toEqual({ text: code, findings: [] });
  });

  it("redacts the user's configured keys exactly, and every string of a structure", () => {
    const known = ["my-custom-provider-key-123"];
    const out = redactDeep({ a: ["uses my-custom-provider-key-123"], b: { c: "ghp_0123456789abcdefghijABCDEFGHIJ012345" }, n: 3 }, known);
    expect(out).toEqual({ a: ["uses [REDACTED:configured-key]"], b: { c: "[REDACTED:github-token]" }, n: 3 });
  });

  it("knows .env files from their templates", () => {
    for (const p of [".env", ".env.local", "config/.env.production", "a/b/.env"]) expect(isEnvFile(p), p).toBe(true);
    for (const p of [".env.example", "x/.env.sample", ".env.template", "env.ts", ".environment", "src/.envrc.md"]) expect(isEnvFile(p), p).toBe(false);
  });
});
