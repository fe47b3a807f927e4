/**
 * `node:stream` — a small working subset, not Node's full streams: Readable (push, 'data',
 * 'end', async iteration, Readable.from, pipe), Writable (write/end through `write` or `_write`,
 * 'finish'), Transform and PassThrough, `pipeline` and `finished`. Backpressure is not modelled
 * (every write is accepted at once); object mode is the default behaviour.
 */
import { EventEmitter } from "./events";

type Cb = (err?: unknown) => void;

export class Stream extends EventEmitter {
  pipe<T extends { write(c: unknown): unknown; end(): unknown }>(dest: T): T {
    this.on("data", (c: unknown) => dest.write(c));
    this.on("end", () => dest.end());
    return dest;
  }
}

export class Readable extends Stream {
  readable = true;
  private buffered: unknown[] = [];
  private ended = false;
  private flowing = false;
  private encoding: string | null = null;
  constructor(private readonly opts: { read?: (this: Readable) => void; objectMode?: boolean } = {}) {
    super();
  }
  static from(iterable: Iterable<unknown> | AsyncIterable<unknown>): Readable {
    const r = new Readable();
    void (async () => {
      try {
        for await (const v of iterable as AsyncIterable<unknown>) r.push(v);
        r.push(null);
      } catch (err) {
        r.emit("error", err);
      }
    })();
    return r;
  }
  setEncoding(enc: string): this {
    this.encoding = enc;
    return this;
  }
  push(chunk: unknown): boolean {
    if (chunk === null) {
      this.ended = true;
      if (this.flowing) queueMicrotask(() => this.emit("end"));
      return false;
    }
    const c = this.encoding && chunk instanceof Uint8Array ? new TextDecoder().decode(chunk) : chunk;
    if (this.flowing) this.emit("data", c);
    else this.buffered.push(c);
    return true;
  }
  override on(event: string | symbol, fn: (...a: unknown[]) => unknown): this {
    super.on(event, fn);
    if (event === "data") this.resume();
    return this;
  }
  resume(): this {
    if (this.flowing) return this;
    this.flowing = true;
    queueMicrotask(() => {
      this.opts.read?.call(this);
      for (const c of this.buffered.splice(0)) this.emit("data", c);
      if (this.ended) this.emit("end");
    });
    return this;
  }
  pause(): this {
    this.flowing = false;
    return this;
  }
  read(): unknown {
    return this.buffered.shift() ?? null;
  }
  destroy(err?: unknown): this {
    if (err) queueMicrotask(() => this.emit("error", err));
    queueMicrotask(() => this.emit("close"));
    return this;
  }
  async *[Symbol.asyncIterator](): AsyncGenerator<unknown> {
    const queue: unknown[] = [];
    let done = false;
    let wake: (() => void) | null = null;
    this.on("data", (c: unknown) => {
      queue.push(c);
      wake?.();
    });
    this.on("end", () => {
      done = true;
      wake?.();
    });
    while (true) {
      if (queue.length) yield queue.shift();
      else if (done) return;
      else await new Promise<void>((r) => (wake = r));
    }
  }
}

export class Writable extends Stream {
  writable = true;
  private finished = false;
  constructor(private readonly wopts: { write?: (chunk: unknown, enc: string, cb: Cb) => void; final?: (cb: Cb) => void } = {}) {
    super();
  }
  _write(chunk: unknown, enc: string, cb: Cb): void {
    if (this.wopts.write) this.wopts.write.call(this, chunk, enc, cb);
    else cb();
  }
  write(chunk: unknown, enc?: unknown, cb?: Cb): boolean {
    const done = typeof enc === "function" ? (enc as Cb) : cb;
    this._write(chunk, typeof enc === "string" ? enc : "utf8", (err) => {
      if (err) this.emit("error", err);
      done?.(err);
    });
    return true;
  }
  end(chunk?: unknown, enc?: unknown, cb?: Cb): this {
    if (chunk !== undefined && chunk !== null && typeof chunk !== "function") this.write(chunk, enc);
    const done = [chunk, enc, cb].find((x) => typeof x === "function") as Cb | undefined;
    const finish = () => {
      if (this.finished) return;
      this.finished = true;
      this.emit("finish");
      this.emit("close");
      done?.();
    };
    if (this.wopts.final) this.wopts.final.call(this, () => queueMicrotask(finish));
    else queueMicrotask(finish);
    return this;
  }
  destroy(): this {
    queueMicrotask(() => this.emit("close"));
    return this;
  }
}

export class Transform extends Readable {
  private readonly topts: { transform?: (chunk: unknown, enc: string, cb: (err?: unknown, out?: unknown) => void) => void; flush?: (cb: (err?: unknown, out?: unknown) => void) => void };
  constructor(opts: Transform["topts"] = {}) {
    super();
    this.topts = opts;
  }
  _transform(chunk: unknown, enc: string, cb: (err?: unknown, out?: unknown) => void): void {
    if (this.topts.transform) this.topts.transform.call(this, chunk, enc, cb);
    else cb(null, chunk);
  }
  write(chunk: unknown, enc?: unknown, cb?: Cb): boolean {
    this._transform(chunk, typeof enc === "string" ? enc : "utf8", (err, out) => {
      if (err) this.emit("error", err);
      else if (out !== undefined && out !== null) this.push(out);
      (typeof enc === "function" ? (enc as Cb) : cb)?.(err);
    });
    return true;
  }
  end(chunk?: unknown): this {
    if (chunk !== undefined && chunk !== null && typeof chunk !== "function") this.write(chunk);
    const close = () => {
      this.push(null);
      queueMicrotask(() => this.emit("finish"));
    };
    if (this.topts.flush)
      this.topts.flush.call(this, (err, out) => {
        if (out !== undefined && out !== null) this.push(out);
        close();
      });
    else close();
    return this;
  }
}

export class PassThrough extends Transform {}
export const Duplex = Transform;

export function finished(stream: EventEmitter, cb: Cb): void {
  let called = false;
  const once = (err?: unknown) => {
    if (!called) {
      called = true;
      cb(err);
    }
  };
  stream.on("end", () => once());
  stream.on("finish", () => once());
  stream.on("error", (e: unknown) => once(e));
}

export function pipeline(...streams: unknown[]): unknown {
  const cb = typeof streams[streams.length - 1] === "function" ? (streams.pop() as Cb) : undefined;
  const list = streams as Stream[];
  for (let i = 0; i < list.length - 1; i++) list[i]!.pipe(list[i + 1] as unknown as Writable);
  const last = list[list.length - 1]!;
  const p = new Promise<void>((resolve, reject) => finished(last, (err) => (err ? reject(err) : resolve())));
  if (cb) p.then(() => cb(), cb);
  return cb ? last : p;
}

export function streamModule(): Record<string, unknown> {
  const m = Stream as unknown as Record<string, unknown>;
  Object.assign(m, { Stream, Readable, Writable, Transform, PassThrough, Duplex, pipeline, finished, promises: { pipeline, finished: (s: EventEmitter) => new Promise<void>((res, rej) => finished(s, (e) => (e ? rej(e) : res()))) } });
  return m;
}
