/**
 * Node's deep equality (assert.deepStrictEqual, util.isDeepStrictEqual, and the loose form of
 * assert.deepEqual): prototypes and own enumerable keys (symbols too) compared, Maps and Sets
 * by content, Dates and RegExps by value, typed arrays by bytes, cycles followed once.
 */
export function isDeepStrictEqual(a: unknown, b: unknown): boolean {
  return deepEqual(a, b, true, new Map());
}

export function isDeepLooseEqual(a: unknown, b: unknown): boolean {
  return deepEqual(a, b, false, new Map());
}

function deepEqual(a: unknown, b: unknown, strict: boolean, memo: Map<object, object>): boolean {
  if (strict ? Object.is(a, b) : a == b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return false;
  }
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  const tagA = Object.prototype.toString.call(a);
  if (tagA !== Object.prototype.toString.call(b)) return false;
  if (memo.get(a) === b) return true;
  memo.set(a, b);
  if (a instanceof Date) return a.getTime() === (b as Date).getTime();
  if (a instanceof RegExp) return String(a) === String(b) && a.lastIndex === (b as RegExp).lastIndex;
  if (a instanceof Error && (a.message !== (b as Error).message || a.name !== (b as Error).name)) return false;
  if (ArrayBuffer.isView(a)) {
    const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
    const y = new Uint8Array((b as ArrayBufferView).buffer, (b as ArrayBufferView).byteOffset, (b as ArrayBufferView).byteLength);
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (x[i] !== y[i]) return false;
  }
  if (a instanceof Number || a instanceof String || a instanceof Boolean) {
    if (!Object.is(a.valueOf(), (b as { valueOf(): unknown }).valueOf())) return false;
  }
  if (a instanceof Set) {
    const bs = b as Set<unknown>;
    if (a.size !== bs.size) return false;
    outer: for (const v of a) {
      if (bs.has(v)) continue;
      if (typeof v === "object" && v !== null) for (const w of bs) if (deepEqual(v, w, strict, memo)) continue outer;
      return false;
    }
  }
  if (a instanceof Map) {
    const bm = b as Map<unknown, unknown>;
    if (a.size !== bm.size) return false;
    outer: for (const [k, v] of a) {
      if (bm.has(k)) {
        if (!deepEqual(v, bm.get(k), strict, memo)) return false;
        continue;
      }
      if (typeof k === "object" && k !== null) for (const [k2, v2] of bm) if (deepEqual(k, k2, strict, memo) && deepEqual(v, v2, strict, memo)) continue outer;
      return false;
    }
  }
  const keys = (o: object) => [
    ...Object.keys(o),
    ...(strict ? Object.getOwnPropertySymbols(o).filter((s) => Object.prototype.propertyIsEnumerable.call(o, s)) : []),
  ];
  if (ArrayBuffer.isView(a)) return true;
  const ka = keys(a);
  const kb = keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!deepEqual((a as Record<string | symbol, unknown>)[k], (b as Record<string | symbol, unknown>)[k], strict, memo)) return false;
  }
  return true;
}
