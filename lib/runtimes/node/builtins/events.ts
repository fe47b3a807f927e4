/**
 * `node:events` — EventEmitter with Node's semantics: listeners in order, `once`, prepend,
 * an `error` event with no listener throws, the max-listeners warning, `events.once` as a
 * promise and `errorMonitor`.
 */

type Listener = ((...args: unknown[]) => unknown) & { listener?: Listener };

export const errorMonitor = Symbol("events.errorMonitor");

let warn: (msg: string) => void = () => undefined;
/** Where the max-listeners warning goes (the run's process.emitWarning). */
export function setWarningSink(f: (msg: string) => void): void {
  warn = f;
}

export class EventEmitter {
  static defaultMaxListeners = 10;
  static readonly errorMonitor = errorMonitor;
  static EventEmitter: typeof EventEmitter;
  private _events: Map<string | symbol, Listener[]> = new Map();
  private _maxListeners: number | undefined;

  constructor() {
    Object.defineProperty(this, "_events", { enumerable: false, writable: true, value: new Map() });
    Object.defineProperty(this, "_maxListeners", { enumerable: false, writable: true, value: undefined });
  }

  setMaxListeners(n: number): this {
    this._maxListeners = n;
    return this;
  }
  getMaxListeners(): number {
    return this._maxListeners ?? EventEmitter.defaultMaxListeners;
  }

  emit(event: string | symbol, ...args: unknown[]): boolean {
    if (event === "error") {
      const monitors = this._events.get(errorMonitor);
      if (monitors) for (const l of [...monitors]) l.apply(this, args);
    }
    const list = this._events.get(event);
    if (!list || list.length === 0) {
      if (event === "error") {
        const er = args[0];
        if (er instanceof Error) throw er;
        const err = new Error(`Unhandled error. (${typeof er === "string" ? `'${er}'` : String(er)})`);
        (err as Error & { context?: unknown; code?: string }).context = er;
        (err as Error & { code?: string }).code = "ERR_UNHANDLED_ERROR";
        throw err;
      }
      return false;
    }
    for (const l of [...list]) l.apply(this, args);
    return true;
  }

  private add(event: string | symbol, listener: Listener, prepend: boolean): this {
    if (typeof listener !== "function") {
      throw Object.assign(new TypeError(`The "listener" argument must be of type function. Received ${listener === null ? "null" : typeof listener}`), { code: "ERR_INVALID_ARG_TYPE" });
    }
    if (this._events.has("newListener")) this.emit("newListener", event, listener.listener ?? listener);
    let list = this._events.get(event);
    if (!list) this._events.set(event, (list = []));
    if (prepend) list.unshift(listener);
    else list.push(listener);
    const max = this.getMaxListeners();
    if (max > 0 && list.length > max && !(list as Listener[] & { warned?: boolean }).warned) {
      (list as Listener[] & { warned?: boolean }).warned = true;
      warn(
        `MaxListenersExceededWarning: Possible EventEmitter memory leak detected. ${list.length} ${String(event)} listeners added to [${this.constructor.name}]. MaxListeners is ${max}. Use emitter.setMaxListeners() to increase limit`,
      );
    }
    return this;
  }

  on(event: string | symbol, listener: Listener): this {
    return this.add(event, listener, false);
  }
  addListener(event: string | symbol, listener: Listener): this {
    return this.add(event, listener, false);
  }
  prependListener(event: string | symbol, listener: Listener): this {
    return this.add(event, listener, true);
  }

  private onceWrapper(event: string | symbol, listener: Listener): Listener {
    let fired = false;
    const wrapped: Listener = (...args: unknown[]) => {
      if (fired) return undefined;
      fired = true;
      this.removeListener(event, wrapped);
      return listener.apply(this, args);
    };
    wrapped.listener = listener;
    return wrapped;
  }
  once(event: string | symbol, listener: Listener): this {
    return this.add(event, this.onceWrapper(event, listener), false);
  }
  prependOnceListener(event: string | symbol, listener: Listener): this {
    return this.add(event, this.onceWrapper(event, listener), true);
  }

  removeListener(event: string | symbol, listener: Listener): this {
    const list = this._events.get(event);
    if (!list) return this;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i]!.listener === listener) {
        list.splice(i, 1);
        if (list.length === 0) this._events.delete(event);
        if (this._events.has("removeListener")) this.emit("removeListener", event, listener);
        break;
      }
    }
    return this;
  }
  off(event: string | symbol, listener: Listener): this {
    return this.removeListener(event, listener);
  }
  removeAllListeners(event?: string | symbol): this {
    if (event === undefined) this._events.clear();
    else this._events.delete(event);
    return this;
  }
  listeners(event: string | symbol): Listener[] {
    return (this._events.get(event) ?? []).map((l) => l.listener ?? l);
  }
  rawListeners(event: string | symbol): Listener[] {
    return [...(this._events.get(event) ?? [])];
  }
  listenerCount(event: string | symbol): number {
    return this._events.get(event)?.length ?? 0;
  }
  eventNames(): (string | symbol)[] {
    return [...this._events.keys()];
  }
}
EventEmitter.EventEmitter = EventEmitter;

export function once(emitter: EventEmitter | EventTarget, event: string, opts: { signal?: AbortSignal } = {}): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    if ("addEventListener" in emitter && !(emitter instanceof EventEmitter)) {
      emitter.addEventListener(event, (e) => resolve([e]), { once: true });
      return;
    }
    const ee = emitter as EventEmitter;
    const onError = (err: unknown) => {
      ee.removeListener(event, onEvent);
      reject(err);
    };
    const onEvent = (...args: unknown[]) => {
      if (event !== "error") ee.removeListener("error", onError);
      resolve(args);
    };
    ee.once(event, onEvent);
    if (event !== "error") ee.once("error", onError);
    opts.signal?.addEventListener("abort", () => reject(Object.assign(new Error("The operation was aborted"), { name: "AbortError", code: "ABORT_ERR" })), { once: true });
  });
}

export function listenerCount(emitter: EventEmitter, event: string | symbol): number {
  return emitter.listenerCount(event);
}

/** The module object: the class itself, with its helpers as properties (as `require("events")` is). */
export function eventsModule(): unknown {
  const m = EventEmitter as unknown as Record<string, unknown>;
  m.once = once;
  m.listenerCount = listenerCount;
  m.errorMonitor = errorMonitor;
  m.default = EventEmitter;
  return m;
}
