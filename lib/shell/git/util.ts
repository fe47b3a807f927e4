/** Errors, option parsing and output formatting shared by the git subcommands. */

/** A git failure: `message` goes to stderr as is (it carries its own "fatal:"/"error:"). */
export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode = 128,
  ) {
    super(message);
    this.name = "GitError";
  }
}

export const fatal = (msg: string, code = 128) => new GitError(`fatal: ${msg}`, code);
export const gitErr = (msg: string, code = 1) => new GitError(`error: ${msg}`, code);

export type OptionSpec = {
  /** Flags without a value ("-a", "--all"). */
  bool?: string[];
  /** Flags taking a value ("-m", "--message"); `--x=v`, `-xv` and `-x v` all work. */
  value?: string[];
  /** Flags whose value is optional and must be attached (`--short`, `--short=8`). */
  optional?: string[];
  /** Alternative spellings → canonical name. */
  alias?: Record<string, string>;
  /** Accept `-<digits>` as `-n <digits>` (log). */
  numeric?: boolean;
  /** Usage text for errors. */
  usage: string;
  /** Unknown options are reported as the revision parser does ("fatal: unrecognized
   * argument", exit 128), as in log/show/diff. */
  revisionStyle?: boolean;
  /** Stop option parsing at the first positional (like `git config` values). */
  stopAtPositional?: boolean;
};

export type ParsedArgs = {
  /** Canonical flag → values in order (bool flags have "" values, one per occurrence). */
  opts: Map<string, string[]>;
  positionals: string[];
  /** Arguments after "--" (null when there was no "--"). */
  afterDashDash: string[] | null;
  has(name: string): boolean;
  get(name: string): string | undefined;
  all(name: string): string[];
};

export function parseArgs(args: string[], spec: OptionSpec): ParsedArgs {
  const bool = new Set(spec.bool ?? []);
  const value = new Set(spec.value ?? []);
  const optional = new Set(spec.optional ?? []);
  const alias = spec.alias ?? {};
  const opts = new Map<string, string[]>();
  const positionals: string[] = [];
  let afterDashDash: string[] | null = null;
  const canon = (n: string) => alias[n] ?? n;
  const put = (n: string, v: string) => {
    const key = canon(n);
    const list = opts.get(key) ?? [];
    list.push(v);
    opts.set(key, list);
  };
  const unknown = (flag: string): never => {
    if (spec.revisionStyle) throw new GitError(`fatal: unrecognized argument: ${flag}\n`, 128);
    const shown = flag.startsWith("--") ? `unknown option \`${flag.slice(2)}'` : `unknown switch \`${flag.slice(1, 2)}'`;
    throw new GitError(`error: ${shown}\nusage: ${spec.usage}\n`, 129);
  };
  const isKnown = (n: string) => bool.has(n) || value.has(n) || optional.has(n) || alias[n] !== undefined;
  const kindOf = (n: string) => {
    const c = canon(n);
    if (bool.has(n) || bool.has(c)) return "bool";
    if (value.has(n) || value.has(c)) return "value";
    if (optional.has(n) || optional.has(c)) return "optional";
    return null;
  };

  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--") {
      afterDashDash = args.slice(i + 1);
      break;
    }
    if (spec.stopAtPositional && positionals.length > 0) {
      positionals.push(a);
      continue;
    }
    if (a.startsWith("--") && a.length > 2) {
      const eq = a.indexOf("=");
      const name = eq === -1 ? a : a.slice(0, eq);
      const kind = kindOf(name);
      if (!kind) {
        // --no-foo for a known --foo is accepted and recorded as such.
        if (name.startsWith("--no-") && isKnown("--" + name.slice(5))) {
          put(name, "");
          continue;
        }
        unknown(name);
      }
      if (kind === "bool") {
        if (eq !== -1) throw new GitError(`error: option \`${name.slice(2)}' takes no value\nusage: ${spec.usage}\n`, 129);
        put(name, "");
      } else if (kind === "optional") {
        put(name, eq === -1 ? "" : a.slice(eq + 1));
      } else if (eq !== -1) {
        put(name, a.slice(eq + 1));
      } else {
        if (i + 1 >= args.length) throw new GitError(`error: option \`${name.slice(2)}' requires a value\nusage: ${spec.usage}\n`, 129);
        put(name, args[++i]!);
      }
      continue;
    }
    if (a.startsWith("-") && a.length > 1) {
      if (spec.numeric && /^-\d+$/.test(a)) {
        put("-n", a.slice(1));
        continue;
      }
      for (let j = 1; j < a.length; j++) {
        const name = "-" + a[j];
        const kind = kindOf(name);
        if (!kind) unknown(name);
        if (kind === "bool") {
          put(name, "");
          continue;
        }
        const rest = a.slice(j + 1);
        if (kind === "optional") {
          put(name, rest);
        } else if (rest !== "") {
          put(name, rest);
        } else {
          if (i + 1 >= args.length) throw new GitError(`error: switch \`${a[j]}' requires a value\nusage: ${spec.usage}\n`, 129);
          put(name, args[++i]!);
        }
        break;
      }
      continue;
    }
    positionals.push(a);
  }
  return {
    opts,
    positionals,
    afterDashDash,
    has: (n) => opts.has(canon(n)),
    get: (n) => {
      const l = opts.get(canon(n));
      return l === undefined ? undefined : l[l.length - 1];
    },
    all: (n) => opts.get(canon(n)) ?? [],
  };
}

// ---- formatting ----------------------------------------------------------------------------

const WEEKDAYS = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"];
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** isomorphic-git's timezoneOffset has Date#getTimezoneOffset's sign (+0100 → -60). */
function shifted(timestamp: number, tzOffset: number): Date {
  return new Date((timestamp - tzOffset * 60) * 1000);
}

export function formatTz(tzOffset: number): string {
  const minutes = -tzOffset;
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}${String(abs % 60).padStart(2, "0")}`;
}

const p2 = (n: number) => String(n).padStart(2, "0");

/** git's default date format: "Thu Jan 1 00:00:00 2024 +0000". */
export function formatGitDate(timestamp: number, tzOffset: number): string {
  const d = shifted(timestamp, tzOffset);
  return `${WEEKDAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${d.getUTCFullYear()} ${formatTz(tzOffset)}`;
}

/** "2024-01-01 00:00:00 +0000" (blame, --date=iso). */
export function formatIsoDate(timestamp: number, tzOffset: number): string {
  const d = shifted(timestamp, tzOffset);
  return `${d.getUTCFullYear()}-${p2(d.getUTCMonth() + 1)}-${p2(d.getUTCDate())} ${p2(d.getUTCHours())}:${p2(d.getUTCMinutes())}:${p2(d.getUTCSeconds())} ${formatTz(tzOffset)}`;
}

/** "2 hours ago" (%ar). */
export function formatRelative(timestamp: number, now: number): string {
  const s = Math.max(0, Math.round(now - timestamp));
  const units: [number, string][] = [
    [365 * 86400, "year"],
    [30 * 86400, "month"],
    [7 * 86400, "week"],
    [86400, "day"],
    [3600, "hour"],
    [60, "minute"],
  ];
  for (const [size, name] of units) {
    if (s >= size) {
      const n = Math.floor(s / size);
      return `${n} ${name}${n === 1 ? "" : "s"} ago`;
    }
  }
  return `${s} second${s === 1 ? "" : "s"} ago`;
}

/**
 * Parse GIT_AUTHOR_DATE-style values: "@1700000000 +0100", "1700000000 +0100",
 * "2024-01-02T03:04:05Z", "2024-01-02 03:04:05 +0100". Returns null when unparseable.
 */
export function parseGitDate(s: string): { timestamp: number; timezoneOffset: number } | null {
  const t = s.trim();
  let m = /^@?(\d+)(?:\s+([+-])(\d\d):?(\d\d))?$/.exec(t);
  if (m) {
    const off = m[2] ? (Number(m[3]) * 60 + Number(m[4])) * (m[2] === "-" ? -1 : 1) : 0;
    return { timestamp: Number(m[1]), timezoneOffset: -off };
  }
  m = /^(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d))?(?:\.\d+)?\s*(Z|[+-]\d\d:?\d\d)?$/.exec(t);
  if (m) {
    let off = 0;
    if (m[7] && m[7] !== "Z") {
      const z = /([+-])(\d\d):?(\d\d)/.exec(m[7])!;
      off = (Number(z[2]) * 60 + Number(z[3])) * (z[1] === "-" ? -1 : 1);
    }
    const utc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)) / 1000;
    return { timestamp: utc - off * 60, timezoneOffset: -off };
  }
  return null;
}

/**
 * git's quoting of path names (core.quotePath): names with control characters, `"`, `\` or
 * non-ASCII bytes are C-quoted with octal escapes; `quoteSpaces` also quotes names with a
 * space (short status does).
 */
export function cquote(path: string, quoteSpaces = false): string {
  const bytes = new TextEncoder().encode(path);
  let needs = false;
  for (const b of bytes) {
    if (b < 0x20 || b >= 0x7f || b === 0x22 || b === 0x5c || (quoteSpaces && b === 0x20)) {
      needs = true;
      break;
    }
  }
  if (!needs) return path;
  let out = '"';
  for (const b of bytes) {
    if (b === 0x22) out += '\\"';
    else if (b === 0x5c) out += "\\\\";
    else if (b === 0x09) out += "\\t";
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b === 0x07) out += "\\a";
    else if (b === 0x08) out += "\\b";
    else if (b === 0x0c) out += "\\f";
    else if (b === 0x0b) out += "\\v";
    else if (b < 0x20 || b >= 0x7f) out += "\\" + b.toString(8).padStart(3, "0");
    else out += String.fromCharCode(b);
  }
  return out + '"';
}

export function plural(n: number, one: string, many: string): string {
  return n === 1 ? one : many;
}

export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function decodeText(b: Uint8Array): string {
  return new TextDecoder("utf-8", { ignoreBOM: true }).decode(b);
}

/** git's rule: a NUL in the first 8000 bytes means binary. */
export { looksBinary as isBinary } from "../../git/binary";

/** Translate a POSIX basic regular expression (git grep's default) into a JS one. */
export function breToJs(bre: string): string {
  let out = "";
  for (let i = 0; i < bre.length; i++) {
    const c = bre[i]!;
    if (c === "\\" && i + 1 < bre.length) {
      const n = bre[++i]!;
      if ("|(){}+?".includes(n)) out += n;
      else if (n === "<" || n === ">") out += "\\b";
      else out += "\\" + n;
      continue;
    }
    if ("|(){}+?".includes(c)) out += "\\" + c;
    else out += c;
  }
  return out;
}

/** A git pathspec wildcard → RegExp over a whole repo-relative path ("*" crosses "/", unlike lib/tools' path globs). */
export function pathspecToRegExp(glob: string): RegExp {
  let re = "";
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        re += ".*";
        i++;
        if (glob[i + 1] === "/") i++;
      } else re += ".*"; // git's pathspec "*" matches across "/" too
    } else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const end = glob.indexOf("]", i + 1);
      if (end === -1) re += "\\[";
      else {
        re += "[" + glob.slice(i + 1, end).replace(/^!/, "^").replace(/\\/g, "\\\\") + "]";
        i = end;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  return new RegExp("^" + re + "$");
}

export function hasGlob(s: string): boolean {
  return /[*?[]/.test(s);
}

export function splitLines(text: string): string[] {
  if (text === "") return [];
  const l = text.split("\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
}
