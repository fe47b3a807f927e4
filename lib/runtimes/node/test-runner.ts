/**
 * `node:test` for one test file: `test`/`it` and `describe`/`suite` (with `.skip`, `.todo`,
 * `.only`, and the `skip`/`todo`/`only` options), subtests through the context (`t.test`),
 * hooks (`before`, `after`, `beforeEach`, `afterEach`), callback-style tests (`(t, done)`),
 * `t.skip()`/`t.todo()`/`t.diagnostic()`, and a timeout per test. Tests start once the file's
 * top-level code has run, one after another, and are reported as Node's spec reporter prints them
 * (▶ suites, ✔ passes, ✖ failures with the error, ﹣ skips). The counts go back to `node --test`,
 * which adds up the files and prints the summary.
 */
import { inspect } from "./inspect";
import type { EventLoop } from "./event-loop";

export type TestCounts = { tests: number; suites: number; pass: number; fail: number; cancelled: number; skipped: number; todo: number };
export type TestFileReport = TestCounts & { failures: string[] };

type Fn = (...args: unknown[]) => unknown;
type Options = { skip?: boolean | string; todo?: boolean | string; only?: boolean; timeout?: number; concurrency?: unknown };
type Hook = { kind: "before" | "after" | "beforeEach" | "afterEach"; fn: Fn };
type Node = {
  name: string;
  kind: "test" | "suite";
  fn?: Fn;
  opts: Options;
  children: Node[];
  hooks: Hook[];
  parent: Node | null;
  depth: number;
};

export type TestHost = {
  write(stream: "stdout" | "stderr", text: string): void;
  loop: EventLoop;
  /** The file's counts and failures, when every test is done. */
  done(report: TestFileReport): void;
};

function parseArgs(args: unknown[]): { name: string; opts: Options; fn?: Fn } {
  let name = "<anonymous>";
  let opts: Options = {};
  let fn: Fn | undefined;
  for (const a of args) {
    if (typeof a === "string") name = a;
    else if (typeof a === "function") {
      fn = a as Fn;
      if (name === "<anonymous>" && (a as Fn).name) name = (a as Fn).name;
    } else if (a && typeof a === "object") opts = a as Options;
  }
  return { name, opts, fn };
}

function ms(start: number): string {
  const d = performance.now() - start;
  return `${Number(d.toFixed(6)).toString()}ms`;
}

export function createTestModule(host: TestHost): Record<string, unknown> {
  const root: Node = { name: "<root>", kind: "suite", opts: {}, children: [], hooks: [], parent: null, depth: -1 };
  let current = root;
  let hasOnly = false;
  let started = false;
  const counts: TestCounts = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
  const failures: string[] = [];
  const out = (text: string) => host.write("stdout", text);

  const add = (kind: "test" | "suite", args: unknown[], extra: Options = {}) => {
    const { name, opts, fn } = parseArgs(args);
    const o = { ...opts, ...extra };
    if (o.only) hasOnly = true;
    const node: Node = { name, kind, fn, opts: o, children: [], hooks: [], parent: current, depth: current.depth + 1 };
    current.children.push(node);
    if (kind === "suite" && fn) {
      const prev = current;
      current = node;
      try {
        const r = fn();
        if (r && typeof (r as Promise<unknown>).then === "function") void (r as Promise<unknown>).catch(() => undefined);
      } finally {
        current = prev;
      }
    }
    schedule();
    return Promise.resolve();
  };

  const schedule = () => {
    if (started) return;
    started = true;
    // After the file's top-level code: everything is registered by then.
    const run = new Promise<void>((resolve) => host.loop.setTimeout(() => resolve(), 0, [], false)).then(() => runAll());
    void host.loop.track(run);
  };

  const indent = (depth: number) => "  ".repeat(Math.max(0, depth));

  /** The error as Node's reporter shows it: inspected (stack and own properties), indented under the test. */
  const describeError = (err: unknown, depth: number): string => {
    const pad = indent(depth + 1);
    // Frames of the runtime itself (the worker bundle, or this directory under Node) mean nothing to the user.
    if (err instanceof Error && typeof err.stack === "string") {
      const stack = err.stack
        .split("\n")
        .filter((l) => !/^\s+at /.test(l) || !/node-worker\.js|runtimes\/node\//.test(l))
        .map((l) => l.replace(/^(\s+at )eval \(/, "$1TestContext.<anonymous> ("))
        .join("\n");
      try {
        Object.defineProperty(err, "stack", { value: stack, configurable: true, writable: true });
      } catch {
        // a frozen error keeps its stack
      }
    }
    const text = inspect(err);
    return text
      .split("\n")
      .map((l) => (l === "" ? pad.trimEnd() : pad + l))
      .join("\n");
  };

  const runHooks = async (node: Node, kind: Hook["kind"]) => {
    for (const h of node.hooks) if (h.kind === kind) await h.fn();
  };
  const eachHooks = (node: Node, kind: "beforeEach" | "afterEach"): Hook[] => {
    const chain: Node[] = [];
    for (let n: Node | null = node.parent; n; n = n.parent) chain.unshift(n);
    const hooks = chain.flatMap((n) => n.hooks.filter((h) => h.kind === kind));
    return kind === "afterEach" ? hooks.reverse() : hooks;
  };

  const callTest = (node: Node, ctx: Record<string, unknown>): Promise<unknown> => {
    const fn = node.fn!;
    const timeout = node.opts.timeout;
    const body =
      fn.length >= 2
        ? new Promise<void>((resolve, reject) => {
            const r = fn(ctx, (err?: unknown) => (err ? reject(err) : resolve()));
            if (r && typeof (r as Promise<unknown>).then === "function") reject(new Error("passed a callback but also returned a Promise"));
          })
        : Promise.resolve().then(() => fn(ctx));
    if (!timeout || !Number.isFinite(timeout)) return body;
    return Promise.race([
      body,
      new Promise((_r, reject) => {
        const t = host.loop.setTimeout(() => reject(Object.assign(new Error(`test timed out after ${timeout}ms`), { code: "ERR_TEST_FAILURE" })), timeout, [], false);
        void body.finally(() => host.loop.clear(t)).catch(() => undefined);
      }),
    ]);
  };

  const runNode = async (node: Node, onlyMode: boolean): Promise<boolean> => {
    const start = performance.now();
    const pad = indent(node.depth);
    const skip = node.opts.skip;
    const todo = node.opts.todo;
    if (onlyMode && !node.opts.only && !containsOnly(node)) {
      return true; // filtered out, as --test-only does
    }
    if (node.kind === "suite") {
      counts.suites++;
      out(`${pad}▶ ${node.name}\n`);
      let ok = true;
      if (skip || todo) {
        for (const c of node.children) {
          countSkip(c, skip ? "skip" : "todo");
          out(`${indent(c.depth)}﹣ ${c.name} (0ms) # ${skip ? "SKIP" : "TODO"}\n`);
        }
      } else {
        try {
          await runHooks(node, "before");
          const childOnly = onlyMode && !node.opts.only;
          for (const c of node.children) ok = (await runNode(c, childOnly)) && ok;
          await runHooks(node, "after");
        } catch (err) {
          ok = false;
          counts.fail++;
          failures.push(`${node.name}\n${describeError(err, 0)}`);
          out(`${describeError(err, node.depth)}\n`);
        }
      }
      out(`${pad}${ok ? "▶" : "✖"} ${node.name} (${ms(start)})\n`);
      return ok;
    }
    counts.tests++;
    if (skip || todo || !node.fn) {
      const isTodo = !skip;
      if (isTodo) counts.todo++;
      else counts.skipped++;
      const reason = typeof skip === "string" ? ` ${skip}` : typeof todo === "string" ? ` ${todo}` : "";
      out(`${pad}${isTodo ? "✔" : "﹣"} ${node.name} (${ms(start)}) # ${isTodo ? "TODO" : "SKIP"}${reason}\n`);
      return true;
    }
    let skipped: string | null = null;
    let todoMark: string | null = null;
    const sub: Node = { ...node, children: [], hooks: [] };
    const ctx: Record<string, unknown> = {
      name: node.name,
      signal: new AbortController().signal,
      skip: (m?: string) => void (skipped = m ?? ""),
      todo: (m?: string) => void (todoMark = m ?? ""),
      diagnostic: (m: string) => out(`${indent(node.depth + 1)}ℹ ${m}\n`),
      test: (...a: unknown[]) => {
        const { name, opts, fn } = parseArgs(a);
        const child: Node = { name, kind: "test", fn, opts, children: [], hooks: [], parent: sub, depth: node.depth + 1 };
        sub.children.push(child);
        return runNode(child, false);
      },
      before: (fn: Fn) => sub.hooks.push({ kind: "before", fn }),
      after: (fn: Fn) => sub.hooks.push({ kind: "after", fn }),
      beforeEach: (fn: Fn) => sub.hooks.push({ kind: "beforeEach", fn }),
      afterEach: (fn: Fn) => sub.hooks.push({ kind: "afterEach", fn }),
      plan: () => undefined,
      mock: mockApi(),
    };
    let error: unknown = null;
    try {
      for (const h of eachHooks(node, "beforeEach")) await h.fn(ctx);
      await callTest(node, ctx);
      for (const h of eachHooks(node, "afterEach")) await h.fn(ctx);
    } catch (err) {
      error = err ?? new Error("test failed with a falsy value");
    }
    const time = ms(start);
    if (error) {
      counts.fail++;
      out(`${pad}✖ ${node.name} (${time})\n${describeError(error, node.depth)}\n\n`);
      failures.push(`✖ ${node.name} (${time})\n${describeError(error, 0)}`);
      return false;
    }
    if (skipped !== null) {
      counts.skipped++;
      out(`${pad}﹣ ${node.name} (${time}) # SKIP${skipped ? ` ${skipped}` : ""}\n`);
    } else if (todoMark !== null) {
      counts.todo++;
      out(`${pad}✔ ${node.name} (${time}) # TODO${todoMark ? ` ${todoMark}` : ""}\n`);
    } else {
      counts.pass++;
      out(`${pad}✔ ${node.name} (${time})\n`);
    }
    return true;
  };

  const countSkip = (node: Node, how: "skip" | "todo") => {
    if (node.kind === "suite") {
      counts.suites++;
      node.children.forEach((c) => countSkip(c, how));
    } else {
      counts.tests++;
      if (how === "skip") counts.skipped++;
      else counts.todo++;
    }
  };

  const runAll = async () => {
    try {
      await runHooks(root, "before");
      for (const c of root.children) await runNode(c, hasOnly);
      await runHooks(root, "after");
    } catch (err) {
      counts.fail++;
      failures.push(describeError(err, 0));
      out(`${describeError(err, 0)}\n`);
    }
    host.done({ ...counts, failures });
  };

  const test = (...a: unknown[]) => add("test", a);
  test.skip = (...a: unknown[]) => add("test", a, { skip: true });
  test.todo = (...a: unknown[]) => add("test", a, { todo: true });
  test.only = (...a: unknown[]) => add("test", a, { only: true });
  const describe = (...a: unknown[]) => add("suite", a);
  describe.skip = (...a: unknown[]) => add("suite", a, { skip: true });
  describe.todo = (...a: unknown[]) => add("suite", a, { todo: true });
  describe.only = (...a: unknown[]) => add("suite", a, { only: true });
  const hook = (kind: Hook["kind"]) => (fn: Fn) => {
    current.hooks.push({ kind, fn });
  };
  const mod: Record<string, unknown> = {
    test,
    it: test,
    describe,
    suite: describe,
    before: hook("before"),
    after: hook("after"),
    beforeEach: hook("beforeEach"),
    afterEach: hook("afterEach"),
    mock: mockApi(),
  };
  (test as unknown as Record<string, unknown>).test = test;
  Object.assign(test, mod);
  mod.default = test;
  return test as unknown as Record<string, unknown>;
}

function containsOnly(node: Node): boolean {
  return node.children.some((c) => c.opts.only || containsOnly(c));
}

/** `mock.fn()` — calls recorded, an optional implementation; the rest of node's mock API is not here. */
function mockApi(): Record<string, unknown> {
  return {
    fn: (impl: Fn = () => undefined) => {
      const calls: { arguments: unknown[]; result?: unknown; error?: unknown; this: unknown }[] = [];
      const f = function (this: unknown, ...args: unknown[]) {
        const call: (typeof calls)[number] = { arguments: args, this: this };
        calls.push(call);
        try {
          call.result = impl.apply(this, args);
          return call.result;
        } catch (err) {
          call.error = err;
          throw err;
        }
      };
      (f as unknown as Record<string, unknown>).mock = { calls, callCount: () => calls.length, resetCalls: () => void (calls.length = 0) };
      return f;
    },
  };
}

/** The totals line block of `node --test` (spec reporter). */
export function summary(c: TestCounts, durationMs: number): string {
  return [
    `ℹ tests ${c.tests}`,
    `ℹ suites ${c.suites}`,
    `ℹ pass ${c.pass}`,
    `ℹ fail ${c.fail}`,
    `ℹ cancelled ${c.cancelled}`,
    `ℹ skipped ${c.skipped}`,
    `ℹ todo ${c.todo}`,
    `ℹ duration_ms ${Number(durationMs.toFixed(6))}`,
    "",
  ].join("\n");
}

/** The closing list of failures, as the spec reporter prints it ("✖ failing tests:"). */
export function failureSection(failures: string[]): string {
  if (failures.length === 0) return "";
  return `\n✖ failing tests:\n\n${failures.join("\n\n")}\n`;
}
