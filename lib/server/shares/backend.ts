/**
 * Where shares are kept. One interface, two backends: the local disk (the default, one app
 * server) and an S3-compatible object store (many stateless app servers, one store).
 * Keys are share ids checked by `isShareId` before they reach a backend: never a path.
 */
export type ShareMeta = {
  id: string;
  createdAt: number;
  expiresAt?: number;
  /** sha256 (hex) of the delete secret: the secret itself is never stored. */
  secretHash: string;
  bytes: number;
  title: string;
  revokedAt?: number;
  expiredAt?: number;
};

export interface ShareBackend {
  putData(id: string, data: Uint8Array): Promise<void>;
  getData(id: string): Promise<Uint8Array | undefined>;
  deleteData(id: string): Promise<void>;
  putMeta(meta: ShareMeta): Promise<void>;
  getMeta(id: string): Promise<ShareMeta | undefined>;
}

/** Base64url of 16 random bytes: 128 bits, 22 characters. */
export const SHARE_ID_RE = /^[A-Za-z0-9_-]{22}$/;

export function isShareId(id: unknown): id is string {
  return typeof id === "string" && SHARE_ID_RE.test(id);
}

export function assertShareId(id: string): void {
  if (!isShareId(id)) throw new Error(`Not a share id: ${JSON.stringify(String(id).slice(0, 40))}`);
}
