/**
 * Search patterns from people and from the model, run by a linear-time engine (RE2, via re2js).
 *
 * A backtracking engine (JavaScript's RegExp) can take exponential time on patterns such as
 * `(a+)+$`, and a search runs on the page's main thread: one bad pattern would freeze the tab.
 * RE2 matches in time linear in the input whatever the pattern, at the price of two features it
 * cannot offer — backreferences and lookahead — which get a clear error with an alternative.
 *
 * The accepted syntax is JavaScript's as far as RE2 shares it (classes, quantifiers, groups,
 * named groups, \b, \d, \w, \s, lookbehind), plus `\uXXXX` / `\u{…}` escapes translated for RE2.
 */
import { RE2JS } from "re2js";

export interface PatternOptions {
  /** The query is a regular expression (otherwise literal text). */
  regex?: boolean;
  caseSensitive?: boolean;
  /** Only matches that start and end on a word boundary. */
  wholeWord?: boolean;
}

/** Where a pattern matched in a line: UTF-16 index and length, as JavaScript strings count. */
export type PatternMatch = { index: number; length: number };

export interface SearchPattern {
  /** The first match in `text`, or null. Always linear in the length of `text`. */
  exec(text: string): PatternMatch | null;
  test(text: string): boolean;
  /**
   * For literal queries only: false when `text` (a whole file) cannot hold a match, checked by
   * the engine's native string search — much faster than going line by line, and never false
   * where a line would match (a match never spans lines, and whole-word only narrows).
   */
  mayOccurIn?(text: string): boolean;
  /**
   * `text` with every match replaced, and how many there were. A string replacement reads as
   * String.prototype.replace's ($1, $&, $<name>, $$); a function's result is inserted as is.
   */
  replaceAll(text: string, replacement: string | (() => string)): { text: string; count: number };
}

/** A pattern the engine cannot run; the message says why and what to write instead. */
export class PatternError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PatternError";
  }
}

export function compilePattern(query: string, opts: PatternOptions = {}): SearchPattern {
  const source = opts.regex ? toRe2Syntax(query) : RE2JS.quote(query);
  const bounded = opts.wholeWord ? `\\b(?:${source})\\b` : source;
  let flags = RE2JS.LOOKBEHINDS;
  if (!opts.caseSensitive) flags |= RE2JS.CASE_INSENSITIVE;
  let re: RE2JS;
  try {
    re = RE2JS.compile(bounded, flags);
  } catch (err) {
    // RE2JS quotes the failing part of what it compiled, flags included ("`(?i)(`"): show the user's part.
    const detail = String((err as Error).message ?? err)
      .replace(/^error parsing regexp:\s*/, "")
      .replace(/^Invalid regular expression:\s*/, "")
      .replace(/`\(\?[a-zA-Z]+\)/, "`");
    throw new PatternError(`Invalid regular expression: ${detail}`);
  }
  return {
    mayOccurIn: opts.regex ? undefined : literalPrefilter(query, !!opts.caseSensitive),
    test: (text) => re.test(text),
    exec(text) {
      // The DFA answers "is there a match" fastest; only then ask where.
      if (!re.test(text)) return null;
      // Typed as any[] by re2js; it is RegExpExecArray-shaped (index in UTF-16 units).
      const m = re.exec(text) as (string[] & { index: number }) | null;
      return m ? { index: m.index, length: m[0]!.length } : null;
    },
    replaceAll(text, replacement) {
      if (!re.test(text)) return { text, count: 0 };
      let count = 0;
      for (const m = re.matcher(text); m.find(); ) count++;
      return { text: re.matcher(text).replaceAll(replacement), count };
    },
  };
}

/**
 * A literal query's native pre-check. Case-insensitive goes through a RegExp of the escaped
 * literal with the "iu" flags: Unicode simple case folding, as RE2's case-insensitive matching
 * (so "k" still finds the Kelvin sign and "s" the long s). A literal pattern cannot backtrack.
 */
function literalPrefilter(query: string, caseSensitive: boolean): (text: string) => boolean {
  if (caseSensitive) return (text) => text.includes(query);
  const re = new RegExp(query.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), "iu");
  return (text) => re.test(text);
}

/**
 * JavaScript regex source → RE2 source. Refuses, with an alternative, the constructs RE2 cannot
 * match in linear time; everything else is left for RE2's own parser to accept or explain.
 */
function toRe2Syntax(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const c = source[i]!;
    if (c === "\\") {
      const next = source[i + 1];
      if (next === undefined) throw new PatternError("Invalid regular expression: trailing backslash");
      if (next === "u") {
        const braced = /^\{([0-9a-fA-F]{1,6})\}/.exec(source.slice(i + 2));
        const plain = /^[0-9a-fA-F]{4}/.exec(source.slice(i + 2));
        if (braced) {
          out += `\\x{${braced[1]}}`;
          i += 2 + braced[0].length - 1;
          continue;
        }
        if (plain) {
          out += `\\x{${plain[0]}}`;
          i += 5;
          continue;
        }
      }
      if (!inClass && /[1-9]/.test(next)) {
        throw new PatternError(
          `Backreferences (\\${next}) are not supported: search uses a linear-time engine (RE2) so that no pattern can hang the tab. ` +
            `Search for the repeated text itself (e.g. "(\\w+) \\1" → "\\b(\\w+) \\w+\\b", then read the hits), or run grep -E in run_commands.`,
        );
      }
      if (!inClass && next === "k" && source[i + 2] === "<") {
        throw new PatternError(
          "Named backreferences (\\k<name>) are not supported: search uses a linear-time engine (RE2). Spell out the repeated text instead.",
        );
      }
      out += c + next;
      i++;
      continue;
    }
    if (inClass) {
      if (c === "]") inClass = false;
      out += c;
      continue;
    }
    if (c === "[") {
      inClass = true;
      out += c;
      // For RE2 a "]" right after "[" or "[^" is a literal, not the end of the class.
      if (source[i + 1] === "^") out += source[++i];
      if (source[i + 1] === "]") out += source[++i];
      continue;
    }
    if (c === "(" && source[i + 1] === "?" && (source[i + 2] === "=" || source[i + 2] === "!")) {
      const negative = source[i + 2] === "!";
      throw new PatternError(
        `Lookahead (${negative ? "(?!…)" : "(?=…)"}) is not supported: search uses a linear-time engine (RE2) so that no pattern can hang the tab. ` +
          (negative
            ? 'Search for the wider pattern and skip the hits you do not want, or use a negated class (e.g. "foo[^b]" instead of "foo(?!b)").'
            : 'Match the following text as part of the pattern instead (e.g. "foo(?=bar)" → "foobar").'),
      );
    }
    out += c;
  }
  return out;
}
