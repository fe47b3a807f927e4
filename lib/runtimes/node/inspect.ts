/**
 * util.inspect and util.format as Node prints them, so `console.log` of an object in the tab
 * shows what it shows in a terminal: the same quoting, the same `[Object]` past depth 2, the
 * same line breaking (Node's "compact: 3" rule: an object goes on one line when it fits in 80
 * columns and holds nothing nested 3 levels deep; arrays of more than 6 short items are grouped
 * in aligned columns), circular references as `<ref *1>` / `[Circular *1]`.
 *
 * What JavaScript cannot see is said, not guessed: a Promise's state and a Proxy's target are
 * V8 internals, so a promise shows as `Promise { <state unknown> }`.
 */

export type InspectOptions = {
  depth?: number | null;
  breakLength?: number;
  compact?: number | boolean;
  maxArrayLength?: number;
  maxStringLength?: number;
  sorted?: boolean;
  showHidden?: boolean;
  getters?: boolean;
  colors?: boolean;
};

type Ctx = {
  depth: number;
  breakLength: number;
  compact: number;
  maxArrayLength: number;
  maxStringLength: number;
  sorted: boolean;
  showHidden: boolean;
  seen: unknown[];
  circular: Map<unknown, number>;
  indentationLvl: number;
  currentDepth: number;
};

export const inspectCustom = Symbol.for("nodejs.util.inspect.custom");

/** Classes the runtime's own built-ins want printed their own way (Buffer). */
const customFormatters: Array<(v: object, ctx: { inspect(v: unknown): string }) => string | undefined> = [];
export function registerFormatter(f: (v: object, ctx: { inspect(v: unknown): string }) => string | undefined): void {
  customFormatters.push(f);
}

export function inspect(value: unknown, opts: InspectOptions = {}): string {
  const ctx: Ctx = {
    depth: opts.depth === null ? Infinity : (opts.depth ?? 2),
    breakLength: opts.breakLength ?? 80,
    compact: opts.compact === false ? 0 : opts.compact === true ? 3 : (opts.compact ?? 3),
    maxArrayLength: opts.maxArrayLength ?? 100,
    maxStringLength: opts.maxStringLength ?? 10000,
    sorted: opts.sorted ?? false,
    showHidden: opts.showHidden ?? false,
    seen: [],
    circular: new Map(),
    indentationLvl: 0,
    currentDepth: 0,
  };
  return formatValue(ctx, value, 0, true);
}
inspect.custom = inspectCustom;

const IDENT = /^[a-zA-Z_$][a-zA-Z_$0-9]*$/;

export function quoteString(s: string): string {
  let quote = "'";
  if (s.includes("'")) {
    if (!s.includes('"')) quote = '"';
    else if (!s.includes("`") && !s.includes("${")) quote = "`";
  }
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === quote || ch === "\\") out += "\\" + ch;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\t") out += "\\t";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\b") out += "\\b";
    else if (ch === "\f") out += "\\f";
    else if (ch === "\v") out += "\\v";
    else if (c < 0x20 || c === 0x7f) out += "\\x" + c.toString(16).toUpperCase().padStart(2, "0");
    else out += ch;
  }
  return quote + out + quote;
}

function formatPrimitive(ctx: Ctx, v: unknown): string {
  switch (typeof v) {
    case "string": {
      let s = v;
      let trailer = "";
      if (s.length > ctx.maxStringLength) {
        trailer = `... ${s.length - ctx.maxStringLength} more character${s.length - ctx.maxStringLength > 1 ? "s" : ""}`;
        s = s.slice(0, ctx.maxStringLength);
      }
      return quoteString(s) + trailer;
    }
    case "number":
      return Object.is(v, -0) ? "-0" : String(v);
    case "bigint":
      return `${v}n`;
    case "boolean":
      return String(v);
    case "undefined":
      return "undefined";
    case "symbol":
      return v.toString();
    default:
      return String(v);
  }
}

function formatValue(ctx: Ctx, value: unknown, recurseTimes: number, typedArray = false): string {
  void typedArray;
  if (value === null) return "null";
  if (typeof value !== "object" && typeof value !== "function") return formatPrimitive(ctx, value);

  const custom = (value as Record<symbol, unknown>)[inspectCustom];
  if (typeof custom === "function" && custom !== inspect) {
    const r = custom.call(value, ctx.depth - recurseTimes, { depth: ctx.depth - recurseTimes, breakLength: ctx.breakLength, compact: ctx.compact }, inspect);
    if (r !== value) return typeof r === "string" ? r : formatValue(ctx, r, recurseTimes);
  }
  for (const f of customFormatters) {
    const r = f(value as object, { inspect: (v) => formatValue(ctx, v, recurseTimes + 1) });
    if (r !== undefined) return r;
  }

  if (ctx.seen.includes(value)) {
    let idx = ctx.circular.get(value);
    if (idx === undefined) {
      idx = ctx.circular.size + 1;
      ctx.circular.set(value, idx);
    }
    return `[Circular *${idx}]`;
  }
  return formatRaw(ctx, value as object, recurseTimes);
}

function constructorName(obj: object): string | null {
  let o: object | null = obj;
  while (o) {
    const d = Object.getOwnPropertyDescriptor(o, "constructor");
    if (d && typeof d.value === "function" && d.value.name !== "") return d.value.name;
    o = Object.getPrototypeOf(o);
  }
  return null;
}

function prefix(ctor: string | null, tag: string, fallback: string, size = ""): string {
  if (ctor === null) return `[${fallback}${size}: null prototype] ${tag !== "" && tag !== fallback ? `[${tag}] ` : ""}`;
  if (tag !== "" && ctor !== tag) return `${ctor}${size} [${tag}] `;
  return `${ctor}${size} `;
}

function isError(v: object): v is Error {
  return v instanceof Error || Object.prototype.toString.call(v) === "[object Error]";
}

function functionBase(fn: Function, ctor: string | null): string {
  const src = Function.prototype.toString.call(fn);
  if (src.startsWith("class") && /^class\b/.test(src)) {
    let base = `[class ${fn.name || "(anonymous)"}`;
    const sup = Object.getPrototypeOf(fn);
    if (sup && sup.name) base += ` extends ${sup.name}`;
    return base + "]";
  }
  let type = "Function";
  const tag = Object.prototype.toString.call(fn).slice(8, -1);
  if (tag === "AsyncFunction") type = "AsyncFunction";
  else if (tag === "GeneratorFunction") type = "GeneratorFunction";
  else if (tag === "AsyncGeneratorFunction") type = "AsyncGeneratorFunction";
  let base = `[${type}`;
  if (ctor === null) base += " (null prototype)";
  base += fn.name ? `: ${fn.name}]` : " (anonymous)]";
  if (ctor !== type && ctor !== null && ctor !== "Function") base += ` ${ctor}`;
  return base;
}

function formatError(err: Error, ctx: Ctx): string {
  const name = err.name ?? "Error";
  const message = err.message ?? "";
  let stack = typeof err.stack === "string" && err.stack !== "" ? err.stack : `${name}${message ? `: ${message}` : ""}`;
  if (!stack.includes("\n    at") && typeof err.stack !== "string") stack = `[${stack}]`;
  // Node indents the stack with the current indentation.
  if (ctx.indentationLvl !== 0) {
    const pad = " ".repeat(ctx.indentationLvl);
    stack = stack.split("\n").join(`\n${pad}`);
  }
  return stack;
}

function getKeys(value: object, showHidden: boolean): (string | symbol)[] {
  const keys: (string | symbol)[] = showHidden ? Object.getOwnPropertyNames(value) : Object.keys(value);
  for (const s of Object.getOwnPropertySymbols(value)) {
    if (showHidden || Object.prototype.propertyIsEnumerable.call(value, s)) keys.push(s);
  }
  return keys;
}

function formatRaw(ctx: Ctx, value: object, recurseTimes: number): string {
  const ctor = constructorName(value);
  const tagRaw = (value as Record<symbol, unknown>)[Symbol.toStringTag];
  const tag = typeof tagRaw === "string" ? tagRaw : "";
  let keys: (string | symbol)[] = getKeys(value, ctx.showHidden);
  let base = "";
  let braces: [string, string] = ["{", "}"];
  let formatter: () => string[] = () => [];
  let extrasType: "object" | "array" = "object";
  let noEntries = false;

  if (Array.isArray(value)) {
    const pre = ctor !== "Array" || tag !== "" ? prefix(ctor, tag, "Array", `(${value.length})`) : "";
    keys = keys.filter((k) => typeof k === "symbol" || !isIndex(k, value.length));
    braces = [`${pre}[`, "]"];
    extrasType = "array";
    if (value.length === 0 && keys.length === 0) return `${braces[0]}]`;
    formatter = () => formatArray(ctx, value, recurseTimes);
  } else if (value instanceof Set) {
    const pre = prefix(ctor, tag, "Set", `(${value.size})`);
    formatter = () => [...value].map((v) => formatValue(ctx, v, recurseTimes + 1));
    if (value.size === 0 && keys.length === 0) return `${pre}{}`;
    braces = [`${pre}{`, "}"];
  } else if (value instanceof Map) {
    const pre = prefix(ctor, tag, "Map", `(${value.size})`);
    formatter = () => [...value].map(([k, v]) => `${formatValue(ctx, k, recurseTimes + 1)} => ${formatValue(ctx, v, recurseTimes + 1)}`);
    if (value.size === 0 && keys.length === 0) return `${pre}{}`;
    braces = [`${pre}{`, "}"];
  } else if (ArrayBuffer.isView(value) && !(value instanceof DataView)) {
    const ta = value as unknown as ArrayLike<number | bigint> & { length: number };
    const fallback = tag || "TypedArray";
    const pre = prefix(ctor, tag === ctor ? "" : tag, fallback, `(${ta.length})`);
    keys = keys.filter((k) => typeof k === "symbol" || !isIndex(k, ta.length));
    braces = [`${pre}[`, "]"];
    extrasType = "array";
    if (ta.length === 0 && keys.length === 0) return `${braces[0]}]`;
    formatter = () => {
      const out: string[] = [];
      const n = Math.min(ta.length, ctx.maxArrayLength);
      for (let i = 0; i < n; i++) out.push(formatPrimitive(ctx, ta[i]));
      if (ta.length > n) out.push(`... ${ta.length - n} more item${ta.length - n > 1 ? "s" : ""}`);
      return out;
    };
  } else if (typeof value === "function") {
    base = functionBase(value as Function, ctor);
    keys = keys.filter((k) => k !== "prototype");
    if (keys.length === 0) return base;
  } else if (value instanceof RegExp) {
    base = RegExp.prototype.toString.call(value);
    if (keys.length === 0) return base;
  } else if (value instanceof Date) {
    base = Number.isNaN(value.getTime()) ? "Invalid Date" : value.toISOString();
    if (keys.length === 0) return base;
  } else if (isError(value)) {
    base = formatError(value, ctx);
    keys = keys.filter((k) => k !== "stack" && k !== "message");
    if (keys.length === 0) return base;
  } else if (value instanceof Promise) {
    braces = [`${prefix(ctor, tag === "Promise" ? "" : tag, "Promise")}{`, "}"];
    formatter = () => ["<state unknown>"];
  } else if (value instanceof WeakMap || value instanceof WeakSet) {
    const name = value instanceof WeakMap ? "WeakMap" : "WeakSet";
    return `${prefix(ctor, tag === name ? "" : tag, name)}{ <items unknown> }`;
  } else if (value instanceof ArrayBuffer) {
    const bytes = new Uint8Array(value);
    const hex = [...bytes.slice(0, 50)].map((b) => b.toString(16).padStart(2, "0")).join(" ");
    const more = bytes.length > 50 ? ` ... ${bytes.length - 50} more byte${bytes.length - 50 > 1 ? "s" : ""}` : "";
    braces = [`${prefix(ctor, "", "ArrayBuffer")}{`, "}"];
    formatter = () => [`[Uint8Contents]: <${hex}${more}>`, `byteLength: ${bytes.length}`];
  } else if (value instanceof Number || value instanceof String || value instanceof Boolean || (typeof BigInt === "function" && value instanceof BigInt) || value instanceof Symbol) {
    const prim = (value as { valueOf(): unknown }).valueOf();
    const type = typeof prim === "string" ? "String" : typeof prim === "number" ? "Number" : typeof prim === "boolean" ? "Boolean" : typeof prim === "bigint" ? "BigInt" : "Symbol";
    base = `[${type}${ctor !== type ? ` (${ctor})` : ""}: ${formatPrimitive({ ...ctx }, prim)}]`;
    if (typeof prim === "string") keys = keys.filter((k) => typeof k === "symbol" || !isIndex(k, (prim as string).length));
    if (keys.length === 0) return base;
  } else {
    if (tag === "Module" || (ctor === null && tag === "Module")) braces = ["[Module: null prototype] {", "}"];
    else if (ctor === "Object") {
      if (tag !== "") braces = [`Object [${tag}] {`, "}"];
    } else braces = [`${prefix(ctor, tag, "Object")}{`, "}"];
    if (keys.length === 0) return `${braces[0]}}`;
    noEntries = true;
  }
  void noEntries;

  if (recurseTimes > ctx.depth) {
    const name = Array.isArray(value) ? "Array" : (ctor ?? "Object");
    return `[${name}]`;
  }

  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  let output: string[];
  try {
    output = formatter();
    for (const k of ctx.sorted ? [...keys].sort() : keys) output.push(formatProperty(ctx, value, recurseTimes, k, extrasType));
  } finally {
    ctx.seen.pop();
  }
  const ref = ctx.circular.get(value);
  if (ref !== undefined) {
    const refTag = `<ref *${ref}>`;
    if (base === "") braces[0] = `${refTag} ${braces[0]}`;
    else base = `${refTag} ${base}`;
  }
  return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
}

function isIndex(k: string, length: number): boolean {
  if (!/^(0|[1-9]\d*)$/.test(k)) return false;
  return Number(k) < length;
}

function formatArray(ctx: Ctx, value: unknown[], recurseTimes: number): string[] {
  const out: string[] = [];
  const len = value.length;
  const max = Math.min(len, ctx.maxArrayLength);
  let i = 0;
  let shown = 0;
  while (i < len && shown < max) {
    if (!Object.prototype.hasOwnProperty.call(value, i)) {
      let j = i;
      while (j < len && !Object.prototype.hasOwnProperty.call(value, j)) j++;
      const holes = j - i;
      out.push(`<${holes} empty item${holes > 1 ? "s" : ""}>`);
      i = j;
    } else {
      out.push(formatProperty(ctx, value, recurseTimes, i, "array"));
      i++;
    }
    shown++;
  }
  if (i < len) {
    const rest = len - i;
    out.push(`... ${rest} more item${rest > 1 ? "s" : ""}`);
  }
  return out;
}

function formatProperty(ctx: Ctx, value: object, recurseTimes: number, key: string | symbol | number, type: "object" | "array"): string {
  const desc = Object.getOwnPropertyDescriptor(value, key) ?? { value: (value as Record<string | symbol, unknown>)[key as string], enumerable: true };
  let str: string;
  if (desc.value !== undefined || !("get" in desc || "set" in desc)) {
    const diff = ctx.compact !== 3 ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes + 1);
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    str = desc.set !== undefined ? "[Getter/Setter]" : "[Getter]";
  } else if (desc.set !== undefined) {
    str = "[Setter]";
  } else {
    str = "undefined";
  }
  if (type === "array" && typeof key === "number") return str;
  let name: string;
  if (typeof key === "symbol") name = `[${key.toString()}]`;
  else if (typeof key === "number") name = `'${key}'`;
  else if (IDENT.test(key)) name = key;
  else name = quoteString(key);
  if (desc.enumerable === false) name = `[${name}]`;
  return `${name}: ${str}`;
}

function isBelowBreakLength(ctx: Ctx, output: string[], start: number, base: string): boolean {
  let total = output.length + start;
  if (total + output.length > ctx.breakLength) return false;
  for (const o of output) {
    total += o.length;
    if (total > ctx.breakLength) return false;
  }
  return base === "" || !base.includes("\n");
}

function reduceToSingleString(ctx: Ctx, output: string[], base: string, braces: [string, string], extrasType: "object" | "array", recurseTimes: number, value: unknown): string {
  if (ctx.compact >= 1) {
    const entries = output.length;
    if (extrasType === "array" && entries > 6) output = groupArrayElements(ctx, output, value as unknown[]);
    if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
      const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
      if (isBelowBreakLength(ctx, output, start, base)) {
        const joined = output.join(", ");
        if (!joined.includes("\n")) return `${base ? `${base} ` : ""}${braces[0]} ${joined} ${braces[1]}`;
      }
    }
  }
  const indentation = `\n${" ".repeat(ctx.indentationLvl)}`;
  return `${base ? `${base} ` : ""}${braces[0]}${indentation}  ${output.join(`,${indentation}  `)}${indentation}${braces[1]}`;
}

function groupArrayElements(ctx: Ctx, output: string[], value: unknown[] | undefined): string[] {
  let totalLength = 0;
  let maxLength = 0;
  let outputLength = output.length;
  if (value && ctx.maxArrayLength < (value as unknown[]).length && outputLength > 0 && output[outputLength - 1]!.startsWith("... ")) outputLength--;
  const separatorSpace = 2;
  const dataLen: number[] = new Array(outputLength);
  for (let i = 0; i < outputLength; i++) {
    const len = output[i]!.length;
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength && (totalLength / actualMax > 5 || maxLength <= 6)) {
    const approxCharHeights = 2.5;
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(approxCharHeights * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const tmp: string[] = [];
    const maxLineLength: number[] = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) if (dataLen[j]! > lineLength) lineLength = dataLen[j]!;
      maxLineLength.push(lineLength + separatorSpace);
    }
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== "number" && typeof value[i] !== "bigint") {
          padStart = false;
          break;
        }
      }
    }
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = "";
      let j = i;
      for (; j < max - 1; j++) {
        const cell = `${output[j]}, `;
        str += padStart ? cell.padStart(maxLineLength[j - i]!, " ") : cell.padEnd(maxLineLength[j - i]!, " ");
      }
      str += padStart ? output[j]!.padStart(maxLineLength[j - i]! - separatorSpace, " ") : output[j]!;
      tmp.push(str);
    }
    if (outputLength < output.length) tmp.push(output[outputLength]!);
    return tmp;
  }
  return output;
}

/** util.format: printf-like placeholders (%s %d %i %f %j %o %O %c %%), the rest inspected and joined by spaces. */
export function format(...args: unknown[]): string {
  return formatWithOptions({}, ...args);
}

export function formatWithOptions(opts: InspectOptions, ...args: unknown[]): string {
  const first = args[0];
  let a = 0;
  let str = "";
  if (typeof first === "string") {
    if (args.length === 1) return first;
    a = 1;
    let last = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) !== 37) continue; // '%'
      const c = first[i + 1]!;
      if (c === "%") {
        str += first.slice(last, i) + "%";
        last = i + 2;
        i++;
        continue;
      }
      if (a >= args.length || !"sdifjoOc".includes(c)) continue;
      const arg = args[a];
      let rep: string;
      switch (c) {
        case "s":
          if (typeof arg === "bigint") rep = `${arg}n`;
          else if (typeof arg === "symbol") rep = arg.toString();
          else if (typeof arg === "object" && arg !== null) rep = hasOwnToString(arg) ? String(arg) : inspect(arg, { ...opts, depth: 0, compact: 3 });
          else rep = typeof arg === "number" && Object.is(arg, -0) ? "-0" : String(arg);
          break;
        case "d":
          rep = typeof arg === "bigint" ? `${arg}n` : typeof arg === "symbol" ? "NaN" : formatNumber(Number(arg));
          break;
        case "i":
          rep = typeof arg === "bigint" ? `${arg}n` : typeof arg === "symbol" ? "NaN" : formatNumber(parseInt(String(arg), 10));
          break;
        case "f":
          rep = typeof arg === "symbol" ? "NaN" : formatNumber(parseFloat(String(arg)));
          break;
        case "j":
          try {
            rep = JSON.stringify(arg);
          } catch {
            rep = "[Circular]";
          }
          break;
        case "o":
          rep = inspect(arg, { ...opts, showHidden: true, depth: 4 });
          break;
        case "O":
          rep = inspect(arg, opts);
          break;
        default: // %c: CSS, ignored outside a browser console
          rep = "";
      }
      str += first.slice(last, i) + rep;
      last = i + 2;
      i++;
      a++;
    }
    str += first.slice(last);
  }
  for (; a < args.length; a++) {
    const v = args[a];
    if (str !== "" || a > 0) str += " ";
    str += typeof v === "string" ? v : inspect(v, opts);
  }
  return str;
}

function formatNumber(n: number): string {
  return Object.is(n, -0) ? "-0" : String(n);
}

function hasOwnToString(obj: object): boolean {
  if (obj instanceof Error) return false;
  let o: object | null = obj;
  while (o && o !== Object.prototype) {
    if (Object.prototype.hasOwnProperty.call(o, "toString")) return true;
    o = Object.getPrototypeOf(o);
  }
  return false;
}
