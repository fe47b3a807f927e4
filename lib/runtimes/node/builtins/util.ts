/**
 * `node:util` — format/inspect as Node prints them (../inspect.ts), promisify/callbackify,
 * inherits, deprecate (warns once), isDeepStrictEqual, types, TextEncoder/TextDecoder,
 * styleText (without colours: the output is not a TTY), parseArgs' common forms are not here.
 */
import { format, formatWithOptions, inspect } from "../inspect";
import { isDeepStrictEqual } from "./deep-equal";

export const promisifyCustom = Symbol.for("nodejs.util.promisify.custom");

export function promisify(fn: unknown): (...args: unknown[]) => Promise<unknown> {
  if (typeof fn !== "function") {
    throw Object.assign(new TypeError(`The "original" argument must be of type function. Received ${fn === null ? "null" : typeof fn}`), { code: "ERR_INVALID_ARG_TYPE" });
  }
  const custom = (fn as unknown as Record<symbol, unknown>)[promisifyCustom];
  if (typeof custom === "function") return custom as (...args: unknown[]) => Promise<unknown>;
  return function (this: unknown, ...args: unknown[]) {
    return new Promise((resolve, reject) => {
      (fn as (...a: unknown[]) => void).call(this, ...args, (err: unknown, ...values: unknown[]) => (err ? reject(err) : resolve(values[0])));
    });
  };
}
promisify.custom = promisifyCustom;

export function callbackify(fn: (...args: unknown[]) => Promise<unknown>) {
  return function (this: unknown, ...args: unknown[]) {
    const cb = args.pop() as (err: unknown, v?: unknown) => void;
    fn.apply(this, args).then(
      (v) => queueMicrotask(() => cb(null, v)),
      (err) => queueMicrotask(() => cb(err ?? Object.assign(new Error("Promise was rejected with a falsy value"), { reason: err }))),
    );
  };
}

export function inherits(ctor: { prototype: object; super_?: unknown }, superCtor: { prototype: object }): void {
  Object.defineProperty(ctor, "super_", { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const types = {
  isPromise: (v: unknown) => v instanceof Promise,
  isDate: (v: unknown) => v instanceof Date,
  isRegExp: (v: unknown) => v instanceof RegExp,
  isMap: (v: unknown) => v instanceof Map,
  isSet: (v: unknown) => v instanceof Set,
  isWeakMap: (v: unknown) => v instanceof WeakMap,
  isWeakSet: (v: unknown) => v instanceof WeakSet,
  isNativeError: (v: unknown) => v instanceof Error,
  isTypedArray: (v: unknown) => ArrayBuffer.isView(v) && !(v instanceof DataView),
  isUint8Array: (v: unknown) => v instanceof Uint8Array,
  isArrayBuffer: (v: unknown) => v instanceof ArrayBuffer,
  isAnyArrayBuffer: (v: unknown) => v instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && v instanceof SharedArrayBuffer),
  isDataView: (v: unknown) => v instanceof DataView,
  isAsyncFunction: (v: unknown) => Object.prototype.toString.call(v) === "[object AsyncFunction]",
  isGeneratorFunction: (v: unknown) => /GeneratorFunction\]$/.test(Object.prototype.toString.call(v)),
  isBoxedPrimitive: (v: unknown) => v instanceof Number || v instanceof String || v instanceof Boolean,
};

export function utilModule(warn: (msg: string, code?: string) => void): Record<string, unknown> {
  const warned = new Set<string>();
  const deprecate = (fn: (...a: unknown[]) => unknown, msg: string, code?: string) =>
    function (this: unknown, ...args: unknown[]) {
      const key = code ?? msg;
      if (!warned.has(key)) {
        warned.add(key);
        warn(`${code ? `[${code}] ` : ""}DeprecationWarning: ${msg}`);
      }
      return fn.apply(this, args);
    };
  return {
    format,
    formatWithOptions,
    inspect,
    promisify,
    callbackify,
    inherits,
    deprecate,
    isDeepStrictEqual,
    types,
    isArray: Array.isArray,
    isError: (v: unknown) => v instanceof Error,
    TextEncoder,
    TextDecoder,
    stripVTControlCharacters: (s: string) => s.replace(/\u001b\[[0-9;]*[A-Za-z]/g, ""),
    styleText: (_style: unknown, text: string) => text,
    toUSVString: (s: string) => (s as string & { toWellFormed?(): string }).toWellFormed?.() ?? s,
    debuglog: () => () => undefined,
    aborted: (signal: AbortSignal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve(), { once: true })),
  };
}
