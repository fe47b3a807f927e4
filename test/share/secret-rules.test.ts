/**
 * Every family of secret the share redaction knows, each with a real-shaped positive and a near miss
 * that must stay untouched: our own rules, credentials in URLs, and gitleaks' vendored rule set.
 */
import { describe, expect, it } from "vitest";
import { redactText } from "../../lib/share/secrets";
import { fromRe2, gitleaksRules, redactWithGitleaks, shannonEntropy } from "../../lib/share/gitleaks";
import data from "../../lib/share/gitleaks-rules.json";

/** Deterministic high-entropy text from an alphabet (a real token is random; a test must not be). */
function token(alphabet: string, n: number, seed = 7): string {
  let x = seed;
  let out = "";
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    out += alphabet[(x >>> 16) % alphabet.length];
  }
  return out;
}
const ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
const LOWER = "abcdefghijklmnopqrstuvwxyz";
const HEX = "0123456789abcdef";

/** [family, the kind reported, a positive (the secret is redacted), a near miss (nothing is)]. */
const FAMILIES: [string, string, string, string][] = [
  ["GitLab personal access token", "gitlab-pat", `glpat-${token(ALNUM + "_-", 20)}`, `glpat-${token(ALNUM, 12)}`],
  ["npm access token", "npm-access-token", `npm_${token(ALNUM, 36)}`, `npm_${token(ALNUM, 20)} npm_config_cache`],
  ["Hugging Face access token", "huggingface-access-token", `hf_${token(LOWER + LOWER.toUpperCase(), 34)}`, "from huggingface_hub import hf_hub_download"],
  ["Hugging Face org token", "huggingface-organization-api-token", `api_org_${token(LOWER + LOWER.toUpperCase(), 34)}`, "api_org_settings"],
  ["PyPI upload token", "pypi-upload-token", `pypi-AgEIcHlwaS5vcmc${token(ALNUM + "_-", 60)}`, "pypi-AgEIcHlwaS5vcmc-short"],
  ["Shopify access token", "shopify-access-token", `shpat_${token(HEX, 32)}`, `shpat_${token(HEX, 20)}`],
  ["SendGrid API token", "sendgrid-api-token", `SG.${token(ALNUM, 22)}.${token(ALNUM, 43)}`, "SG.Module.Name"],
  ["DigitalOcean token", "digitalocean-pat", `dop_v1_${token(HEX, 64)}`, `dop_v1_${token(HEX, 40)}`],
  ["Doppler token", "doppler-api-token", `dp.pt.${token(ALNUM, 43)}`, "dp.pt.short"],
  ["Databricks token", "databricks-api-token", `dapi${token(HEX, 32)}`, `dapi${token(HEX, 20)}`],
  ["Linear API key", "linear-api-key", `lin_api_${token(ALNUM, 40)}`, "lin_api_docs"],
  ["Postman API token", "postman-api-token", `PMAK-${token(HEX, 24)}-${token(HEX, 34)}`, `PMAK-${token(HEX, 10)}`],
  ["Pulumi token", "pulumi-api-token", `pul-${token(HEX, 40)}`, "pul-request"],
  ["Grafana service account token", "grafana-service-account-token", `glsa_${token(ALNUM, 32)}_${token(HEX, 8)}`, "glsa_short_token"],
  ["age secret key", "age-secret-key", `AGE-SECRET-KEY-1${token("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58)}`, "AGE-SECRET-KEY-1SHORT"],
  ["Telegram bot token", "telegram-bot-api-token", `telegram_bot = "123456789:AA${token(ALNUM + "_", 33)}"`, "telegram bot docs: see the README"],
  // Our own rules
  ["Anthropic key", "anthropic-key", `sk-ant-api03-${token(ALNUM, 40)}`, "sk-ant-short"],
  ["OpenAI key", "openai-key", `sk-proj-${token(ALNUM, 40)}`, "sk-learn is a library"],
  ["OpenRouter key", "openrouter-key", `sk-or-v1-${token(HEX, 64)}`, "sk-or-v1-"],
  ["AWS access key id", "aws-access-key", `AKIA${token("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16)}`, "AKIA-not-a-key"],
  ["GitHub token", "github-token", `ghp_${token(ALNUM, 36)}`, "ghp_short"],
  ["Google API key", "google-api-key", `AIza${token(ALNUM + "_-", 35)}`, "AIzaShort"],
  ["Slack token", "slack-token", `xoxb-${token("0123456789", 12)}-${token(ALNUM, 24)}`, "xoxb-"],
  ["Stripe key", "stripe-key", `sk_live_${token(ALNUM, 24)}`, "sk_live_"],
  ["JWT", "jwt", `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${token(ALNUM, 43)}`, "eyJhbGciOiJIUzI1NiJ9"],
  ["Bearer token", "bearer-token", `Authorization: Bearer ${token(ALNUM, 32)}`, "Authorization: Bearer <token>"],
  ["private key", "private-key", `-----BEGIN EC PRIVATE KEY-----\n${token(ALNUM, 64)}\n-----END EC PRIVATE KEY-----`, "-----BEGIN PUBLIC KEY-----"],
  ["assigned secret", "assigned-secret", `DB_PASSWORD="${token(ALNUM, 16)}"`, "if (password.length < 8) fail();"],
];

describe("secret families: a positive and a near miss each", () => {
  it.each(FAMILIES)("%s", (_family, kind, positive, nearMiss) => {
    const hit = redactText(`before ${positive} after`);
    expect(hit.findings.map((f) => f.kind)).toContain(kind);
    expect(hit.text).toContain(`[REDACTED:${kind}]`);
    expect(hit.text).toMatch(/^before /);
    expect(hit.text).toMatch(/ after$/);
    const miss = redactText(`before ${nearMiss} after`);
    expect(miss).toEqual({ text: `before ${nearMiss} after`, findings: [] });
  });
});

describe("credentials inside URLs", () => {
  it.each([
    ["https://alice:s3cr3t-P4ss@git.example.com/r.git", "https://alice:[REDACTED:url-credentials]@git.example.com/r.git"],
    ["postgres://app:hunter2hunter2@db.internal:5432/app", "postgres://app:[REDACTED:url-credentials]@db.internal:5432/app"],
    ["DATABASE_URL=mongodb+srv://u:p4ssw0rd@cluster0.example.net/db", "DATABASE_URL=mongodb+srv://u:[REDACTED:url-credentials]@cluster0.example.net/db"],
    ["redis://:only-a-password@cache:6379", "redis://:[REDACTED:url-credentials]@cache:6379"],
  ])("redacts the password of %s", (input, expected) => {
    const r = redactText(input);
    expect(r.text).toBe(expected);
    expect(r.findings.map((f) => f.kind)).toContain("url-credentials");
  });

  it.each([
    "https://git.example.com:8443/owner/repo.git",
    "ssh://git@github.com/owner/repo.git",
    "mailto:alice@example.com",
    "git@github.com:owner/repo.git",
    "see https://example.com/a:b/c@d for details",
  ])("leaves %s alone", (input) => {
    expect(redactText(input)).toEqual({ text: input, findings: [] });
  });
});

describe("gitleaks' vendored rules", () => {
  it("are vendored with their source and licence, and every one compiles in JavaScript", () => {
    expect(data.source).toMatch(/^https:\/\/github\.com\/gitleaks\/gitleaks\/blob\/[0-9a-f]{40}\/config\/gitleaks\.toml$/);
    expect(data.license).toMatch(/^MIT/);
    const { rules, skipped } = gitleaksRules();
    expect(skipped).toEqual([]);
    expect(rules.length).toBe(data.rules.length);
    expect(rules.length).toBeGreaterThan(200);
  });

  it("rewrites RE2-only syntax to its JavaScript equivalent", () => {
    expect(fromRe2("(?i)abc").flags).toContain("i");
    expect(fromRe2("x(?s:.){0,3}y").test("x\n\ny")).toBe(true);
    expect(fromRe2("^a\\z").test("a")).toBe(true);
    expect(fromRe2("a(?-i:B)c", "").test("aBc")).toBe(true);
    expect(fromRe2("[[:alnum:]]+").test("a1")).toBe(true);
  });

  it("drops low-entropy matches and allow-listed placeholders as gitleaks does", () => {
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBe(2);
    const found = (text: string) => {
      const ids: string[] = [];
      redactWithGitleaks(text, (id) => `[REDACTED:${id}]`, (id) => ids.push(id));
      return ids;
    };
    expect(found(`glpat-${"a".repeat(20)}`)).toEqual([]); // below the rule's entropy
    expect(found(`glpat-${token(ALNUM, 20)}`)).toEqual(["gitlab-pat"]);
    expect(found(`api_token = "\${SECRET_TOKEN}"`)).toEqual([]); // a template variable (global allow-list)
    expect(found(`api_token = "${token(ALNUM, 24)}"`)).toEqual(["generic-api-key"]);
  });
});
