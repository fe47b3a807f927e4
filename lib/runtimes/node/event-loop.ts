/**
 * When a run is over. Node exits when nothing is left that could call back into the program:
 * no pending timer (unless unref'd), no pending I/O callback. The runtime's timers, immediates,
 * fs callbacks and fetches are counted here; when the count falls to zero after the main module
 * has run, 'beforeExit' is given its chance to schedule more, and then the run ends. Callbacks
 * run through `guard`, so an exception thrown in one reaches the run's uncaught-exception path.
 */
export type RealTimers = {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(h: unknown): void;
  /** A macrotask as soon as possible (setImmediate under Node, a MessageChannel in a worker). */
  macrotask(fn: () => void): void;
};

export class Timeout {
  private refed = true;
  private active = true;
  handle: unknown;
  constructor(
    private readonly loop: EventLoop,
    readonly id: number,
    private readonly start: () => unknown,
    readonly repeat: boolean,
  ) {
    this.handle = start();
  }
  ref(): this {
    if (!this.refed && this.active) this.loop.adjust(1);
    this.refed = true;
    return this;
  }
  unref(): this {
    if (this.refed && this.active) this.loop.adjust(-1);
    this.refed = false;
    return this;
  }
  hasRef(): boolean {
    return this.refed;
  }
  refresh(): this {
    if (this.active) {
      this.loop.real.clearTimeout(this.handle);
      this.handle = this.start();
    }
    return this;
  }
  close(): this {
    this.loop.clear(this);
    return this;
  }
  /** Ends the timer's claim on the loop (fired once, or cleared). */
  settle(): void {
    if (!this.active) return;
    this.active = false;
    if (this.refed) this.loop.adjust(-1);
  }
  isActive(): boolean {
    return this.active;
  }
  [Symbol.toPrimitive](): number {
    return this.id;
  }
}

export class EventLoop {
  private refs = 0;
  private nextId = 1;
  private readonly timers = new Map<number, Timeout>();
  private mainDone = false;
  private checking = false;
  private stopped = false;
  onIdle: () => void = () => undefined;
  onError: (err: unknown) => void = () => undefined;

  constructor(readonly real: RealTimers) {}

  /** Callbacks still to come (timers, immediates, I/O) that keep the run alive. */
  get pending(): number {
    return this.refs;
  }

  adjust(n: number): void {
    this.refs += n;
    if (this.refs === 0) this.scheduleCheck();
  }

  /** Run a program callback; a throw goes to the uncaught-exception path. */
  guard(fn: () => void): void {
    if (this.stopped) return;
    try {
      fn();
    } catch (err) {
      this.onError(err);
    }
  }

  setTimeout(fn: (...a: unknown[]) => void, ms: unknown, args: unknown[], repeat: boolean): Timeout {
    if (typeof fn !== "function") {
      throw Object.assign(new TypeError(`The "callback" argument must be of type function. Received ${fn === null ? "null" : typeof fn}`), { code: "ERR_INVALID_ARG_TYPE" });
    }
    let delay = Number(ms);
    if (!(delay >= 1 && delay <= 2 ** 31 - 1)) delay = 1;
    const id = this.nextId++;
    this.refs++;
    const t: Timeout = new Timeout(
      this,
      id,
      () =>
        this.real.setTimeout(() => {
          if (!t.isActive()) return;
          if (repeat) {
            this.guard(() => fn(...args));
            if (t.isActive()) t.refresh();
          } else {
            this.timers.delete(id);
            this.guard(() => fn(...args));
            t.settle();
          }
        }, delay),
      repeat,
    );
    this.timers.set(id, t);
    return t;
  }

  clear(t: unknown): void {
    const timer = t instanceof Timeout ? t : typeof t === "number" ? this.timers.get(t) : undefined;
    if (!timer || !timer.isActive()) return;
    this.real.clearTimeout(timer.handle);
    this.timers.delete(timer.id);
    timer.settle();
  }

  setImmediate(fn: (...a: unknown[]) => void, args: unknown[]): Immediate {
    const im = new Immediate(this);
    this.refs++;
    this.real.macrotask(() => {
      if (im.cleared) return;
      this.guard(() => fn(...args));
      im.settle();
    });
    return im;
  }

  /** An I/O completion: runs soon, and keeps the run alive until it has. */
  defer(fn: () => void): void {
    this.refs++;
    this.real.macrotask(() => {
      this.guard(fn);
      this.adjust(-1);
    });
  }

  /** Keep the run alive while `p` is pending (a fetch). */
  track<T>(p: Promise<T>): Promise<T> {
    this.refs++;
    const done = () => this.real.macrotask(() => this.adjust(-1));
    p.then(done, done);
    return p;
  }

  mainFinished(): void {
    this.mainDone = true;
    this.scheduleCheck();
  }

  private scheduleCheck(): void {
    if (!this.mainDone || this.checking || this.stopped) return;
    this.checking = true;
    // Let pending promise reactions run first: they may schedule more work.
    this.real.macrotask(() => {
      this.checking = false;
      if (this.refs === 0 && !this.stopped) this.onIdle();
    });
  }

  /** The run is over: nothing of the program runs after this. */
  stop(): void {
    this.stopped = true;
    for (const t of this.timers.values()) this.real.clearTimeout(t.handle);
    this.timers.clear();
  }

  get isStopped(): boolean {
    return this.stopped;
  }
}

export class Immediate {
  cleared = false;
  private settled = false;
  private refed = true;
  constructor(private readonly loop: EventLoop) {}
  settle(): void {
    if (this.settled) return;
    this.settled = true;
    if (this.refed) this.loop.adjust(-1);
  }
  clear(): void {
    this.cleared = true;
    this.settle();
  }
  ref(): this {
    if (!this.refed && !this.settled) this.loop.adjust(1);
    this.refed = true;
    return this;
  }
  unref(): this {
    if (this.refed && !this.settled) this.loop.adjust(-1);
    this.refed = false;
    return this;
  }
  hasRef(): boolean {
    return this.refed;
  }
}
