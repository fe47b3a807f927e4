/**
 * Request/response over a message port (a Worker, its global scope, a MessageChannel), with
 * JSON-only payloads: everything is passed through JSON first, so no function, DOM object or
 * prototype ever crosses — what arrives is plain data, whichever side sent it.
 */
export interface Port {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (ev: { data: unknown }) => void): void;
  removeEventListener?(type: "message", listener: (ev: { data: unknown }) => void): void;
}

type Msg = { rpc: 1; id: number; method: string; params?: unknown } | { rpc: 1; id: number; ok: boolean; value?: unknown; error?: string };

export class RpcTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RpcTimeout";
  }
}

/** Plain data only: functions, cycles and exotic objects are refused here, not on the other side. */
export function json<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value)) as T;
}

export class Rpc {
  private next = 1;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void; timer?: ReturnType<typeof setTimeout> }>();
  private readonly handlers = new Map<string, (params: unknown) => unknown>();
  private readonly listener = (ev: { data: unknown }) => void this.receive(ev.data);
  private closed = false;

  constructor(private readonly port: Port) {
    port.addEventListener("message", this.listener);
  }

  handle(method: string, fn: (params: any) => unknown): void {
    this.handlers.set(method, fn);
  }

  call<T = unknown>(method: string, params?: unknown, timeoutMs?: number): Promise<T> {
    if (this.closed) return Promise.reject(new Error("The connection is closed"));
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const entry: { resolve(v: unknown): void; reject(e: Error): void; timer?: ReturnType<typeof setTimeout> } = { resolve: resolve as (v: unknown) => void, reject };
      if (timeoutMs !== undefined) {
        entry.timer = setTimeout(() => {
          this.pending.delete(id);
          reject(new RpcTimeout(`${method} took longer than ${timeoutMs} ms`));
        }, timeoutMs);
      }
      this.pending.set(id, entry);
      try {
        this.port.postMessage({ rpc: 1, id, method, params: json(params) } satisfies Msg);
      } catch (e) {
        clearTimeout(entry.timer);
        this.pending.delete(id);
        reject(new Error(`Could not send ${method}: ${(e as Error).message}`));
      }
    });
  }

  /** Fail every pending call (the other side is gone). */
  close(reason = "The connection closed"): void {
    this.closed = true;
    this.port.removeEventListener?.("message", this.listener);
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      p.reject(new Error(reason));
      this.pending.delete(id);
    }
  }

  private async receive(data: unknown): Promise<void> {
    const m = data as Msg;
    if (!m || typeof m !== "object" || m.rpc !== 1 || typeof m.id !== "number") return;
    if ("method" in m) {
      const fn = this.handlers.get(m.method);
      let reply: Msg;
      try {
        if (!fn) throw new Error(`Unknown method ${m.method}`);
        reply = { rpc: 1, id: m.id, ok: true, value: json(await fn(m.params)) };
      } catch (e) {
        reply = { rpc: 1, id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) };
      }
      if (!this.closed) this.port.postMessage(reply);
      return;
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.error ?? "The call failed"));
  }
}
