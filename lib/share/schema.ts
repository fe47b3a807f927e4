/**
 * The versioned form of a shared or exported session, checked with zod on the way out and on
 * the way in: a tampered, truncated or future-version payload is refused with a sentence that
 * says what is wrong, before anything is stored.
 */
import { z } from "zod";
import type { SessionData } from "../agent/session";

export const SESSION_FORMAT = "tabula-session";
export const SESSION_FORMAT_VERSION = 1;

const id = z.string().min(1).max(200);
const time = z.number().finite().nonnegative();
const text = z.string().max(5_000_000);

const textPart = z.object({ type: z.literal("text"), text }).passthrough();
const part = z.object({ type: z.string().max(40) }).passthrough();

const message = z.discriminatedUnion("role", [
  z.object({ id, role: z.literal("user"), createdAt: time, run: z.number().int().nonnegative().optional(), kind: z.enum(["prompt", "summary", "notice"]).optional(), content: z.array(textPart).max(1000) }).passthrough(),
  z.object({ id, role: z.literal("assistant"), createdAt: time, run: z.number().int().nonnegative().optional(), content: z.array(part).max(1000) }).passthrough(),
  z.object({ id, role: z.literal("tool"), createdAt: time, run: z.number().int().nonnegative().optional(), content: z.array(part).max(1000) }).passthrough(),
]);

const checkpointEntry = z
  .object({ run: z.number().int().nonnegative(), runId: z.string().max(200), ref: z.string().startsWith("refs/tabula/checkpoints/").max(400), oid: z.string().regex(/^[0-9a-f]{40}$/), createdAt: time })
  .passthrough();

const usage = z.object({ inputTokens: z.number(), outputTokens: z.number() }).passthrough();

export const sessionDataSchema = z
  .object({
    version: z.literal(1),
    id: z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$/, "a session id is letters, digits, . _ -"),
    workspaceId: z.string().max(200),
    title: z.string().max(1000),
    mode: z.string().max(40),
    createdAt: time,
    updatedAt: time,
    messages: z.array(message).max(100_000),
    checkpoints: z.array(checkpointEntry).max(100_000),
    usage,
    runs: z.array(z.object({ run: z.number(), status: z.string() }).passthrough()).max(100_000),
    runCount: z.number().int().nonnegative(),
    approvals: z.object({ autoApprove: z.object({ read: z.boolean(), edit: z.boolean(), command: z.boolean() }), allowedCommandPrefixes: z.array(z.string().max(500)).max(1000) }),
  })
  .passthrough();

export const sessionEnvelopeSchema = z.object({
  format: z.literal(SESSION_FORMAT),
  formatVersion: z.number().int(),
  exportedAt: time,
  session: sessionDataSchema,
});

export type SessionEnvelope = { format: typeof SESSION_FORMAT; formatVersion: number; exportedAt: number; session: SessionData };

export function envelope(session: SessionData, now = Date.now()): SessionEnvelope {
  return { format: SESSION_FORMAT, formatVersion: SESSION_FORMAT_VERSION, exportedAt: now, session };
}

/** Parse and check an envelope (already JSON-decoded, or a JSON string). */
export function parseEnvelope(raw: unknown): SessionEnvelope {
  let value = raw;
  if (typeof raw === "string") {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new Error("The session data is not valid JSON (damaged or truncated).");
    }
  }
  const head = z.object({ format: z.literal(SESSION_FORMAT), formatVersion: z.number().int() }).safeParse(value);
  if (!head.success) throw new Error("This is not a Tabula session.");
  if (head.data.formatVersion > SESSION_FORMAT_VERSION) {
    throw new Error(`This session was saved by a newer Tabula (format ${head.data.formatVersion}; this one reads up to ${SESSION_FORMAT_VERSION}). Update Tabula to open it.`);
  }
  if (head.data.formatVersion < 1) throw new Error(`Unknown session format version ${head.data.formatVersion}.`);
  const r = sessionEnvelopeSchema.safeParse(value);
  if (!r.success) {
    const first = r.error.issues[0]!;
    throw new Error(`The session data is invalid at ${first.path.join(".") || "(root)"}: ${first.message}`);
  }
  return r.data as unknown as SessionEnvelope;
}
