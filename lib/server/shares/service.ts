/**
 * The share store's rules, independent of HTTP and of where bytes live: create (size, rate and
 * content checks; an unguessable id; a delete secret returned once and stored only as a hash),
 * fetch (expired and revoked shares say so), revoke (with the secret, compared in constant time).
 */
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { parseSharePackage, DEFAULT_MAX_SHARE_BYTES } from "../../share/package";
import { isShareId, type ShareBackend, type ShareMeta } from "./backend";
import { RateLimiter } from "./rate-limit";

export class ShareError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 410 | 413 | 429,
    message: string,
    readonly reason?: "revoked" | "expired",
  ) {
    super(message);
    this.name = "ShareError";
  }
}

export type ShareServiceOptions = {
  backend: ShareBackend;
  maxBytes?: number;
  /** Longest expiry a share may ask for (default 90 days); no expiry if the client asks for none. */
  maxExpiryMs?: number;
  createLimit?: { limit: number; windowMs: number };
  now?: () => number;
};

const sha256 = (s: string) => createHash("sha256").update(s).digest("hex");
const b64url = (b: Buffer) => b.toString("base64url");

export class ShareService {
  private readonly limiter: RateLimiter;
  private readonly deleteLimiter: RateLimiter;
  readonly maxBytes: number;

  constructor(private readonly opts: ShareServiceOptions) {
    this.maxBytes = opts.maxBytes ?? DEFAULT_MAX_SHARE_BYTES;
    const now = opts.now ?? Date.now;
    this.limiter = new RateLimiter(opts.createLimit?.limit ?? 30, opts.createLimit?.windowMs ?? 10 * 60_000, now);
    this.deleteLimiter = new RateLimiter(60, 60_000, now);
  }

  private now() {
    return (this.opts.now ?? Date.now)();
  }

  async create(data: Uint8Array, opts: { client: string; expiresInMs?: number }): Promise<{ id: string; deleteSecret: string; expiresAt?: number }> {
    if (!this.limiter.take(opts.client)) throw new ShareError(429, "Too many shares from this address; try again in a few minutes.");
    if (data.length > this.maxBytes) throw new ShareError(413, `The share is ${data.length} bytes; this server accepts up to ${this.maxBytes}.`);
    let title = "";
    try {
      title = parseSharePackage(data, this.maxBytes).envelope.session.title;
    } catch (e) {
      throw new ShareError(400, (e as Error).message);
    }
    const maxExpiry = this.opts.maxExpiryMs ?? 90 * 86_400_000;
    if (opts.expiresInMs !== undefined && (!Number.isFinite(opts.expiresInMs) || opts.expiresInMs <= 0 || opts.expiresInMs > maxExpiry)) {
      throw new ShareError(400, `Expiry must be between 1 second and ${Math.round(maxExpiry / 86_400_000)} days.`);
    }
    const id = b64url(randomBytes(16));
    const deleteSecret = b64url(randomBytes(32));
    const createdAt = this.now();
    const meta: ShareMeta = { id, createdAt, secretHash: sha256(deleteSecret), bytes: data.length, title: title.slice(0, 200) };
    if (opts.expiresInMs !== undefined) meta.expiresAt = createdAt + opts.expiresInMs;
    await this.opts.backend.putData(id, data);
    await this.opts.backend.putMeta(meta);
    return { id, deleteSecret, expiresAt: meta.expiresAt };
  }

  private async live(id: string): Promise<ShareMeta> {
    if (!isShareId(id)) throw new ShareError(404, "No such share.");
    const meta = await this.opts.backend.getMeta(id);
    if (!meta) throw new ShareError(404, "No such share.");
    if (meta.revokedAt) throw new ShareError(410, "This link was revoked by the person who shared it.", "revoked");
    if (meta.expiredAt || (meta.expiresAt !== undefined && meta.expiresAt <= this.now())) {
      if (!meta.expiredAt) {
        await this.opts.backend.deleteData(id);
        await this.opts.backend.putMeta({ ...meta, expiredAt: this.now() });
      }
      throw new ShareError(410, "This link has expired.", "expired");
    }
    return meta;
  }

  async get(id: string): Promise<{ meta: ShareMeta; data: Uint8Array }> {
    const meta = await this.live(id);
    const data = await this.opts.backend.getData(id);
    if (!data) throw new ShareError(404, "No such share.");
    return { meta, data };
  }

  async revoke(id: string, secret: string, client: string): Promise<void> {
    if (!this.deleteLimiter.take(client)) throw new ShareError(429, "Too many attempts; try again in a minute.");
    if (!isShareId(id)) throw new ShareError(404, "No such share.");
    const meta = await this.opts.backend.getMeta(id);
    if (!meta) throw new ShareError(404, "No such share.");
    const a = Buffer.from(sha256(String(secret ?? "")), "hex");
    const b = Buffer.from(meta.secretHash, "hex");
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new ShareError(403, "That is not this share's delete secret.");
    if (meta.revokedAt) return;
    await this.opts.backend.deleteData(id);
    await this.opts.backend.putMeta({ ...meta, revokedAt: this.now() });
  }
}
