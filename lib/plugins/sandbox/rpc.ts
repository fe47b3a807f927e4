/**
 * Request/response over a message port (a Worker, its global scope, a MessageChannel), with
 * JSON-only payloads: everything is passed through JSON first, so no function, DOM object or
 * prototype ever crosses — what arrives is plain data, whichever side sent it.
 *
 * Every message received is parsed with a zod schema before it is acted on: the envelope
 * here, a method's parameters where the handler names a schema. A message that is not an RPC
 * envelope is refused and reported through `onRefused` (the other side may be hostile: a
 * sandboxed plugin can post on the port itself); a request for an unknown method or with
 * invalid parameters is answered with an error that says why.
 *
 * A request is acknowledged (`started`) when its handler begins: if the other side is killed
 * later, the caller knows whether the call ever ran (sandboxed.ts retries the ones that did not).
 */
import { z } from "zod";

export interface Port {
  postMessage(message: unknown): void;
  addEventListener(type: "message", listener: (ev: { data: unknown }) => void): void;
  removeEventListener?(type: "message", listener: (ev: { data: unknown }) => void): void;
}

const requestSchema = z.strictObject({ rpc: z.literal(1), id: z.number().int().positive(), method: z.string().min(1).max(100), params: z.unknown().optional() });
const startedSchema = z.strictObject({ rpc: z.literal(1), id: z.number().int().positive(), started: z.literal(true) });
const responseSchema = z.strictObject({ rpc: z.literal(1), id: z.number().int().positive(), ok: z.boolean(), value: z.unknown().optional(), error: z.string().max(100_000).optional() });
const envelopeSchema = z.union([requestSchema, startedSchema, responseSchema]);

type Msg = z.infer<typeof envelopeSchema>;

export class RpcTimeout extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RpcTimeout";
  }
}

/** The connection closed while a call was pending; `started` says whether the other side had begun it. */
export class RpcClosed extends Error {
  constructor(
    message: string,
    readonly started: boolean,
  ) {
    super(message);
    this.name = "RpcClosed";
  }
}

/** Plain data only: functions, cycles and exotic objects are refused here, not on the other side. */
export function json<T>(value: T): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value)) as T;
}

type Pending = { resolve(v: unknown): void; reject(e: Error): void; timer?: ReturnType<typeof setTimeout>; started: boolean };
type Handler = { fn: (params: unknown) => unknown; params?: z.ZodType };

export type RpcOptions = { onRefused?(why: string): void };

export class Rpc {
  private next = 1;
  private readonly pending = new Map<number, Pending>();
  private readonly handlers = new Map<string, Handler>();
  private readonly listener = (ev: { data: unknown }) => void this.receive(ev.data);
  private closed = false;

  constructor(
    private readonly port: Port,
    private readonly opts: RpcOptions = {},
  ) {
    port.addEventListener("message", this.listener);
  }

  /** Serve `method`; with `params`, a request whose parameters do not parse is refused before `fn` runs. */
  handle<S extends z.ZodType>(method: string, fn: (params: z.infer<S>) => unknown, params?: S): void;
  handle(method: string, fn: (params: any) => unknown): void; // eslint-disable-line @typescript-eslint/no-explicit-any
  handle(method: string, fn: (params: unknown) => unknown, params?: z.ZodType): void {
    this.handlers.set(method, { fn, params });
  }

  call<T = unknown>(method: string, params?: unknown, timeoutMs?: number): Promise<T> {
    if (this.closed) return Promise.reject(new RpcClosed("The connection is closed", false));
    const id = this.next++;
    return new Promise<T>((resolve, reject) => {
      const entry: Pending = { resolve: resolve as (v: unknown) => void, reject, started: false };
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
      p.reject(new RpcClosed(reason, p.started));
      this.pending.delete(id);
    }
  }

  private refuse(why: string): void {
    this.opts.onRefused?.(why);
  }

  private reply(m: Msg): void {
    if (!this.closed) this.port.postMessage(m);
  }

  private async receive(data: unknown): Promise<void> {
    if (this.closed) return;
    const parsed = envelopeSchema.safeParse(data);
    if (!parsed.success) {
      const id = data && typeof data === "object" ? (data as { id?: unknown }).id : undefined;
      const why = `not an RPC message (${z.prettifyError(parsed.error).split("\n")[0]?.slice(0, 200)})`;
      this.refuse(`Refused a message: ${why}`);
      // A request we can name is answered, so its sender is not left waiting.
      if (typeof id === "number" && Number.isInteger(id) && id > 0 && typeof (data as { method?: unknown }).method !== "undefined") this.reply({ rpc: 1, id, ok: false, error: `Refused: ${why}` });
      return;
    }
    const m = parsed.data;
    if ("method" in m) {
      const handler = this.handlers.get(m.method);
      if (!handler) {
        this.refuse(`Refused a call to unknown method ${JSON.stringify(m.method)}`);
        return this.reply({ rpc: 1, id: m.id, ok: false, error: `Unknown method ${m.method}` });
      }
      let params: unknown = m.params;
      if (handler.params) {
        const p = handler.params.safeParse(m.params);
        if (!p.success) {
          const why = `invalid parameters for ${m.method}: ${z.prettifyError(p.error).replace(/\n+/g, " ").slice(0, 300)}`;
          this.refuse(`Refused ${why}`);
          return this.reply({ rpc: 1, id: m.id, ok: false, error: `Refused: ${why}` });
        }
        params = p.data;
      }
      this.reply({ rpc: 1, id: m.id, started: true });
      let reply: Msg;
      try {
        reply = { rpc: 1, id: m.id, ok: true, value: json(await handler.fn(params)) };
      } catch (e) {
        reply = { rpc: 1, id: m.id, ok: false, error: e instanceof Error ? e.message : String(e) };
      }
      return this.reply(reply);
    }
    const p = this.pending.get(m.id);
    if (!p) return;
    if ("started" in m) {
      p.started = true;
      return;
    }
    this.pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.ok) p.resolve(m.value);
    else p.reject(new Error(m.error ?? "The call failed"));
  }
}
