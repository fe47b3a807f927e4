/**
 * `node:assert` and `node:assert/strict` — the functions tests use, throwing AssertionError
 * with Node's codes, operators and messages ("Expected values to be strictly equal:").
 * The message of a failed deep comparison shows both values inspected (Node prints a line
 * diff; this shows the two sides).
 */
import { inspect } from "../inspect";
import { isDeepLooseEqual, isDeepStrictEqual } from "./deep-equal";

export class AssertionError extends Error {
  generatedMessage: boolean;
  code = "ERR_ASSERTION";
  actual: unknown;
  expected: unknown;
  operator: string;
  constructor(opts: { message?: string | Error; actual?: unknown; expected?: unknown; operator?: string }) {
    const generated = opts.message === undefined;
    super(typeof opts.message === "string" ? opts.message : generated ? describe(opts) : String(opts.message));
    // Node's own errors carry their code in the stack's first line.
    if (typeof this.stack === "string") this.stack = this.stack.replace(/^[\w$]*Error(?=:|\n|$)/, "AssertionError [ERR_ASSERTION]");
    this.actual = opts.actual;
    this.expected = opts.expected;
    this.operator = opts.operator ?? "fail";
    this.generatedMessage = generated;
  }
}

Object.defineProperty(AssertionError.prototype, "name", { value: "AssertionError", writable: true, configurable: true });

function describe(o: { actual?: unknown; expected?: unknown; operator?: string }): string {
  const a = inspect(o.actual);
  const e = inspect(o.expected);
  switch (o.operator) {
    case "strictEqual":
      if (typeof o.actual === "object" && o.actual !== null && typeof o.expected === "object" && o.expected !== null)
        return `Values have same structure but are not reference-equal:\n\n${a}\n`;
      return a.includes("\n") || e.includes("\n") ? `Expected values to be strictly equal:\n+ actual - expected\n\n+ ${a}\n- ${e}` : `Expected values to be strictly equal:\n\n${a} !== ${e}\n`;
    case "deepStrictEqual":
      return `Expected values to be strictly deep-equal:\n+ actual - expected\n\n+ ${a.split("\n").join("\n+ ")}\n- ${e.split("\n").join("\n- ")}`;
    case "deepEqual":
      return `Expected values to be loosely deep-equal:\n\n${a}\n\nshould loosely deep-equal\n\n${e}`;
    case "notStrictEqual":
      return `Expected "actual" to be strictly unequal to: ${e}`;
    case "notDeepStrictEqual":
      return `Expected "actual" not to be strictly deep-equal to: ${e}`;
    case "==":
      return `${a} == ${e}`;
    case "!=":
      return `${a} != ${e}`;
    default:
      return `${a} ${o.operator} ${e}`;
  }
}

function fail(actual: unknown, expected: unknown, message: string | Error | undefined, operator: string): never {
  if (message instanceof Error) throw message;
  throw new AssertionError({ actual, expected, operator, message });
}

function matchesError(err: unknown, expected: unknown): boolean {
  if (expected === undefined) return true;
  if (typeof expected === "function") {
    if ((expected as { prototype?: unknown }).prototype !== undefined && err instanceof (expected as new () => unknown)) return true;
    if (Error.isPrototypeOf(expected as object) || expected === Error) return false;
    return (expected as (e: unknown) => unknown)(err) === true;
  }
  if (expected instanceof RegExp) return expected.test(String(err));
  if (typeof expected === "object" && expected !== null) {
    for (const [k, v] of Object.entries(expected)) {
      const got = (err as Record<string, unknown>)?.[k];
      if (v instanceof RegExp && typeof got === "string" ? !v.test(got) : !isDeepStrictEqual(got, v)) return false;
    }
    return true;
  }
  return false;
}

export function createAssert(strict: boolean): Record<string, unknown> {
  const ok = (value: unknown, message?: string | Error) => {
    if (!value) fail(value, true, message ?? (arguments.length === 0 ? "No value argument passed to `assert.ok()`" : `The expression evaluated to a falsy value:\n\n  assert.ok(${inspect(value)})\n`), "==");
  };
  const strictEqual = (a: unknown, e: unknown, m?: string | Error) => {
    if (!Object.is(a, e)) fail(a, e, m, "strictEqual");
  };
  const notStrictEqual = (a: unknown, e: unknown, m?: string | Error) => {
    if (Object.is(a, e)) fail(a, e, m, "notStrictEqual");
  };
  const deepStrictEqual = (a: unknown, e: unknown, m?: string | Error) => {
    if (!isDeepStrictEqual(a, e)) fail(a, e, m, "deepStrictEqual");
  };
  const notDeepStrictEqual = (a: unknown, e: unknown, m?: string | Error) => {
    if (isDeepStrictEqual(a, e)) fail(a, e, m, "notDeepStrictEqual");
  };
  const equal = (a: unknown, e: unknown, m?: string | Error) => {
    if (!(a == e || (Number.isNaN(a) && Number.isNaN(e)))) fail(a, e, m, "==");
  };
  const notEqual = (a: unknown, e: unknown, m?: string | Error) => {
    if (a == e) fail(a, e, m, "!=");
  };
  const deepEqual = (a: unknown, e: unknown, m?: string | Error) => {
    if (!isDeepLooseEqual(a, e)) fail(a, e, m, "deepEqual");
  };
  const notDeepEqual = (a: unknown, e: unknown, m?: string | Error) => {
    if (isDeepLooseEqual(a, e)) fail(a, e, m, "notDeepEqual");
  };
  const throws = (fn: () => unknown, expected?: unknown, message?: string) => {
    if (typeof expected === "string") {
      message = expected;
      expected = undefined;
    }
    try {
      fn();
    } catch (err) {
      if (!matchesError(err, expected)) {
        if (typeof expected === "function" || expected instanceof RegExp) throw err;
        fail(err, expected, message, "throws");
      }
      return;
    }
    fail(undefined, expected, message ?? `Missing expected exception${typeof expected === "function" && (expected as { name?: string }).name ? ` (${(expected as { name: string }).name})` : ""}.`, "throws");
  };
  const doesNotThrow = (fn: () => unknown, message?: string) => {
    try {
      fn();
    } catch (err) {
      fail(err, undefined, message ?? `Got unwanted exception.\nActual message: "${(err as Error)?.message}"`, "doesNotThrow");
    }
  };
  const rejects = async (p: Promise<unknown> | (() => Promise<unknown>), expected?: unknown, message?: string) => {
    if (typeof expected === "string") {
      message = expected;
      expected = undefined;
    }
    try {
      await (typeof p === "function" ? p() : p);
    } catch (err) {
      if (!matchesError(err, expected)) {
        if (typeof expected === "function" || expected instanceof RegExp) throw err;
        fail(err, expected, message, "rejects");
      }
      return;
    }
    fail(undefined, expected, message ?? "Missing expected rejection.", "rejects");
  };
  const doesNotReject = async (p: Promise<unknown> | (() => Promise<unknown>), message?: string) => {
    try {
      await (typeof p === "function" ? p() : p);
    } catch (err) {
      fail(err, undefined, message ?? `Got unwanted rejection.\nActual message: "${(err as Error)?.message}"`, "doesNotReject");
    }
  };
  const match = (s: string, re: RegExp, m?: string | Error) => {
    if (typeof s !== "string" || !re.test(s)) fail(s, re, m ?? `The input did not match the regular expression ${String(re)}. Input:\n\n${inspect(s)}\n`, "match");
  };
  const doesNotMatch = (s: string, re: RegExp, m?: string | Error) => {
    if (typeof s === "string" && re.test(s)) fail(s, re, m ?? `The input was expected to not match the regular expression ${String(re)}. Input:\n\n${inspect(s)}\n`, "doesNotMatch");
  };
  const ifError = (v: unknown) => {
    if (v !== null && v !== undefined) throw v instanceof Error ? v : new AssertionError({ message: `ifError got unwanted exception: ${inspect(v)}`, actual: v, operator: "ifError" });
  };
  const assertFail = (message?: string | Error) => fail(undefined, undefined, message ?? "Failed", "fail");

  const fns = {
    ok,
    fail: assertFail,
    strictEqual,
    notStrictEqual,
    deepStrictEqual,
    notDeepStrictEqual,
    equal: strict ? strictEqual : equal,
    notEqual: strict ? notStrictEqual : notEqual,
    deepEqual: strict ? deepStrictEqual : deepEqual,
    notDeepEqual: strict ? notDeepStrictEqual : notDeepEqual,
    throws,
    doesNotThrow,
    rejects,
    doesNotReject,
    match,
    doesNotMatch,
    ifError,
    AssertionError,
  };
  const assert = Object.assign((value: unknown, message?: string | Error) => {
    if (!value) fail(value, true, message ?? `The expression evaluated to a falsy value:\n\n  assert(${inspect(value)})\n`, "==");
  }, fns) as unknown as Record<string, unknown>;
  return assert;
}

export function assertModule(): Record<string, unknown> {
  const loose = createAssert(false);
  const strict = createAssert(true);
  loose.strict = strict;
  strict.strict = strict;
  return loose;
}
