/**
 * What must never leave the browser in a share: API-key-shaped strings, private keys, tokens,
 * credentials inside URLs, and `.env` files. A scan finds them; `redactText` replaces each with
 * `[REDACTED:<kind>]`. Our own rules run first (they name the kinds the share preview shows most
 * often); then gitleaks' maintained rule set (./gitleaks.ts, ~220 token formats: GitLab, npm, Hugging
 * Face, cloud providers…), whose findings are named by the gitleaks rule id.
 * Patterns err towards redacting: a false positive costs a few characters of a shared
 * transcript, a miss can cost an account.
 */
import { redactWithGitleaks } from "./gitleaks";

/** One of our own kinds, or a gitleaks rule id (e.g. "gitlab-pat", "npm-access-token"). */
export type SecretKind = OwnSecretKind | (string & {});

type OwnSecretKind =
  | "private-key"
  | "aws-access-key"
  | "aws-secret"
  | "github-token"
  | "anthropic-key"
  | "openai-key"
  | "openrouter-key"
  | "google-api-key"
  | "slack-token"
  | "stripe-key"
  | "jwt"
  | "bearer-token"
  | "url-credentials"
  | "assigned-secret"
  | "configured-key";

type Rule = { kind: OwnSecretKind; re: RegExp; /** Redact only this capture group (keeps the variable name). */ group?: number };

const RULES: Rule[] = [
  { kind: "private-key", re: /-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----|$)/g },
  { kind: "anthropic-key", re: /\bsk-ant-[A-Za-z0-9_-]{20,}/g },
  { kind: "openrouter-key", re: /\bsk-or-v1-[A-Za-z0-9]{32,}/g },
  { kind: "openai-key", re: /\bsk-(?:proj-|svcacct-|admin-)?[A-Za-z0-9_-]{20,}/g },
  { kind: "aws-access-key", re: /\b(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{16}\b/g },
  { kind: "aws-secret", re: /(aws_?secret_?access_?key["']?\s*[:=]\s*["']?)([A-Za-z0-9/+=]{40})/gi, group: 2 },
  { kind: "github-token", re: /\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{40,})/g },
  { kind: "google-api-key", re: /\bAIza[0-9A-Za-z_-]{35}\b/g },
  { kind: "slack-token", re: /\bxox[abprs]-[A-Za-z0-9-]{10,}/g },
  { kind: "stripe-key", re: /\b(?:sk|rk)_(?:live|test)_[0-9a-zA-Z]{16,}/g },
  { kind: "jwt", re: /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g },
  { kind: "bearer-token", re: /(\bBearer\s+)([A-Za-z0-9._~+/=-]{20,})/g, group: 2 },
  // scheme://user:password@host — any scheme (https, postgres, mongodb+srv, redis, amqp…): the password goes.
  { kind: "url-credentials", re: /(\b[a-z][a-z0-9+.-]{1,30}:\/\/[^\s:/?#@'"`]{0,256}:)([^\s/?#@'"`]{1,256})(@)/gi, group: 2 },
  {
    kind: "assigned-secret",
    re: /((?:api[_-]?key|apikey|secret(?:[_-]?key)?|access[_-]?token|auth[_-]?token|token|password|passwd|client[_-]?secret)["']?\s*[:=]\s*["']?)([^\s"'`,;]{12,})/gi,
    group: 2,
  },
];

export type Finding = { kind: SecretKind; count: number };

const marker = (kind: SecretKind) => `[REDACTED:${kind}]`;

/** Replace every secret in `text`; `known` are exact strings (the user's configured keys). */
export function redactText(text: string, known: readonly string[] = []): { text: string; findings: Finding[] } {
  const counts = new Map<SecretKind, number>();
  let out = text;
  for (const k of known) {
    if (k.length < 8 || !out.includes(k)) continue;
    const parts = out.split(k);
    counts.set("configured-key", (counts.get("configured-key") ?? 0) + parts.length - 1);
    out = parts.join(marker("configured-key"));
  }
  for (const rule of RULES) {
    out = out.replace(rule.re, (...m: string[]) => {
      const whole = m[0]!;
      if (whole.includes("[REDACTED:")) return whole; // already handled by an earlier, more specific rule
      counts.set(rule.kind, (counts.get(rule.kind) ?? 0) + 1);
      if (rule.group === undefined) return marker(rule.kind);
      const prefix = m.slice(1, rule.group).join("");
      const suffix = typeof m[rule.group + 1] === "string" ? m[rule.group + 1] : "";
      return prefix + marker(rule.kind) + suffix;
    });
  }
  out = redactWithGitleaks(out, marker, (kind) => counts.set(kind, (counts.get(kind) ?? 0) + 1));
  return { text: out, findings: [...counts].map(([kind, count]) => ({ kind, count })) };
}

/** Redact every string inside a JSON-like value (keys are left alone). */
export function redactDeep<T>(value: T, known: readonly string[] = [], findings: Map<SecretKind, number> = new Map()): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === "string") {
      const r = redactText(v, known);
      for (const f of r.findings) findings.set(f.kind, (findings.get(f.kind) ?? 0) + f.count);
      return r.text;
    }
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}

const ENV_TEMPLATES = new Set([".env.example", ".env.sample", ".env.template"]);

/** `.env`, `.env.local`, `config/.env.production`… but not `.env.example` / `.sample` / `.template`. */
export function isEnvFile(path: string): boolean {
  const base = path.slice(path.lastIndexOf("/") + 1);
  return /^\.env(?:\..+)?$/.test(base) && !ENV_TEMPLATES.has(base);
}

export function mergeFindings(lists: Finding[][]): Finding[] {
  const m = new Map<SecretKind, number>();
  for (const l of lists) for (const f of l) m.set(f.kind, (m.get(f.kind) ?? 0) + f.count);
  return [...m].map(([kind, count]) => ({ kind, count })).sort((a, b) => a.kind.localeCompare(b.kind));
}
