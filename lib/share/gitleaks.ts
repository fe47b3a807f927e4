/**
 * gitleaks' default rules (MIT; vendored as data in gitleaks-rules.json, see its `source`, regenerated
 * by scripts/vendor-gitleaks-rules.py) run with the browser's own RegExp engine. The patterns are
 * written for Go's RE2; the few RE2-only forms are rewritten to their JavaScript equivalents, and where
 * JavaScript has no exact form (a case-insensitive part inside a case-sensitive pattern) the whole
 * pattern becomes case-insensitive: a redaction errs towards matching more.
 * As gitleaks does: a rule runs only when one of its keywords appears, the secret is the rule's secret
 * group (else its first non-empty group, else the match), a secret below the rule's entropy is no
 * finding, and the global and per-rule allow-lists (regexes, stopwords) drop known false positives.
 */
import data from "./gitleaks-rules.json";

type AllowList = { condition?: string; regexTarget?: string; regexes?: string[]; stopwords?: string[] };
type RawRule = { id: string; regex: string; secretGroup?: number; entropy?: number; keywords?: string[]; allowlists?: AllowList[] };

export type CompiledRule = {
  id: string;
  re: RegExp;
  secretGroup?: number;
  entropy?: number;
  keywords: string[];
  allow: { and: boolean; target: string; regexes: RegExp[]; stopwords: string[] }[];
};

/** RE2 syntax → a JavaScript RegExp (with the flags the inline modifiers asked for). */
export function fromRe2(pattern: string, extraFlags = ""): RegExp {
  let flags = extraFlags;
  let p = pattern;
  if (/\(\?[a-z]*i[a-z]*\)|\(\?i:/.test(p)) flags += "i";
  p = p
    .replace(/\(\?s:\.\)/g, "[\\s\\S]")
    .replace(/\(\?i\)/g, "")
    .replace(/\(\?-?i:/g, "(?:")
    .replace(/\(\?s:/g, "(?:")
    .replace(/\(\?P</g, "(?<")
    .replace(/\\z/g, "$")
    .replace(/\[:alnum:\]/g, "A-Za-z0-9")
    .replace(/\[:alpha:\]/g, "A-Za-z")
    .replace(/\[:digit:\]/g, "0-9");
  if (/\(\?s:/.test(pattern)) flags += "s";
  return new RegExp(p, [...new Set(flags)].join(""));
}

/** Shannon entropy in bits per character, as gitleaks computes it. */
export function shannonEntropy(s: string): number {
  if (!s) return 0;
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let h = 0;
  const n = [...s].length;
  for (const c of counts.values()) {
    const p = c / n;
    h -= p * Math.log2(p);
  }
  return h;
}

function compileAllow(a: AllowList) {
  return {
    and: a.condition?.toUpperCase() === "AND",
    target: a.regexTarget ?? "secret",
    regexes: (a.regexes ?? []).map((r) => fromRe2(r)),
    stopwords: (a.stopwords ?? []).map((w) => w.toLowerCase()),
  };
}

type Compiled = {
  rules: CompiledRule[];
  global: ReturnType<typeof compileAllow>;
  skipped: string[];
  /** One pass finds every keyword in a text: the longest at each position, plus the keywords that are its prefixes. */
  keywordScan: RegExp;
  prefixesOf: Map<string, string[]>;
};

let compiled: Compiled | undefined;

function keywordIndex(rules: CompiledRule[]): Pick<Compiled, "keywordScan" | "prefixesOf"> {
  const all = [...new Set(rules.flatMap((r) => r.keywords))].sort((a, b) => b.length - a.length);
  const escape = (k: string) => k.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const prefixesOf = new Map(all.map((k) => [k, all.filter((o) => k.startsWith(o))]));
  return { keywordScan: new RegExp(`(?=(${all.map(escape).join("|")}))`, "g"), prefixesOf };
}

/** The keywords present in `lower` (a lower-cased text). */
function presentKeywords(lower: string, c: Compiled): Set<string> {
  const found = new Set<string>();
  c.keywordScan.lastIndex = 0;
  for (let m = c.keywordScan.exec(lower); m; m = c.keywordScan.exec(lower)) {
    for (const k of c.prefixesOf.get(m[1]!) ?? []) found.add(k);
    c.keywordScan.lastIndex = m.index + 1;
  }
  return found;
}

/** The rules, compiled once; a rule JavaScript cannot express is listed in `skipped` (a test keeps it empty). */
export function gitleaksRules() {
  if (compiled) return compiled;
  const rules: CompiledRule[] = [];
  const skipped: string[] = [];
  for (const r of (data as { rules: RawRule[] }).rules) {
    try {
      rules.push({
        id: r.id,
        re: fromRe2(r.regex, "g"),
        secretGroup: r.secretGroup,
        entropy: r.entropy,
        keywords: (r.keywords ?? []).map((k) => k.toLowerCase()),
        allow: (r.allowlists ?? []).map(compileAllow),
      });
    } catch {
      skipped.push(r.id);
    }
  }
  compiled = { rules, global: compileAllow((data as { allowlist: AllowList }).allowlist), skipped, ...keywordIndex(rules) };
  return compiled;
}

function allowed(list: ReturnType<typeof compileAllow>, secret: string, match: string, line: string): boolean {
  const target = list.target === "match" ? match : list.target === "line" ? line : secret;
  const checks: boolean[] = [];
  if (list.regexes.length) checks.push(list.regexes.some((re) => re.test(target)));
  if (list.stopwords.length) checks.push(list.stopwords.some((w) => secret.toLowerCase().includes(w)));
  if (checks.length === 0) return false;
  return list.and ? checks.every(Boolean) : checks.some(Boolean);
}

/** Replace every secret a gitleaks rule finds with `marker(ruleId)`, counting findings per rule. */
export function redactWithGitleaks(text: string, marker: (id: string) => string, count: (id: string) => void): string {
  const c = gitleaksRules();
  const { rules, global } = c;
  const present = presentKeywords(text.toLowerCase(), c);
  let out = text;
  for (const rule of rules) {
    if (rule.keywords.length && !rule.keywords.some((k) => present.has(k))) continue;
    out = out.replace(rule.re, (...args: unknown[]) => {
      const whole = args[0] as string;
      const offset = args.find((a, i) => i > 0 && typeof a === "number") as number;
      const groups = args.slice(1, args.indexOf(offset)) as (string | undefined)[];
      if (whole.includes("[REDACTED:")) return whole;
      const secret = (rule.secretGroup ? groups[rule.secretGroup - 1] : groups.find((g) => g)) ?? whole;
      if (!secret || secret.includes("[REDACTED:")) return whole;
      if (rule.entropy && shannonEntropy(secret) < rule.entropy) return whole;
      const lineStart = out.lastIndexOf("\n", offset) + 1;
      const lineEnd = out.indexOf("\n", offset + whole.length);
      const line = out.slice(lineStart, lineEnd === -1 ? undefined : lineEnd);
      if (allowed(global, secret, whole, line) || rule.allow.some((a) => allowed(a, secret, whole, line))) return whole;
      count(rule.id);
      const at = whole.indexOf(secret);
      return whole.slice(0, at) + marker(rule.id) + whole.slice(at + secret.length);
    });
  }
  return out;
}
