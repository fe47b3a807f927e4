/**
 * Making and reading share links. A small package travels in the URL fragment itself
 * (`/s#<base64url zip>`: the fragment never reaches a server); a larger one is stored by
 * POST /api/shares and opened at `/s/<id>`. Links the user published are remembered in this
 * browser, with their delete secrets, so they can be revoked later.
 */
import { bytesToBase64 } from "../encoding/base64";

export const FRAGMENT_LIMIT = 32 * 1024;

export type PublishedLink = { kind: "fragment"; url: string } | { kind: "server"; url: string; id: string; deleteSecret: string; expiresAt?: number };

export function toBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text: string): Uint8Array {
  if (!/^[A-Za-z0-9_-]*$/.test(text)) throw new Error("The link is damaged (it holds characters a share link never has).");
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((text.length + 3) % 4);
  let bin: string;
  try {
    bin = atob(b64);
  } catch {
    throw new Error("The link is damaged (cut short or altered).");
  }
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out;
}

/** The fragment link of a package, or undefined when it is too large for one. */
export function fragmentLink(origin: string, zip: Uint8Array): string | undefined {
  const encoded = toBase64Url(zip);
  return encoded.length <= FRAGMENT_LIMIT ? `${origin}/s#${encoded}` : undefined;
}

export async function publishToServer(origin: string, zip: Uint8Array, opts: { expiresInSeconds?: number; fetch?: typeof fetch } = {}): Promise<PublishedLink> {
  const f = opts.fetch ?? fetch;
  const q = opts.expiresInSeconds ? `?expiresIn=${opts.expiresInSeconds}` : "";
  const res = await f(`${origin}/api/shares${q}`, { method: "POST", headers: { "content-type": "application/zip" }, body: zip as BodyInit });
  const body = (await res.json().catch(() => ({}))) as { id?: string; url?: string; deleteSecret?: string; expiresAt?: number; error?: string };
  if (!res.ok || !body.id || !body.deleteSecret) throw new Error(body.error ?? `The server refused the share (${res.status}).`);
  return { kind: "server", id: body.id, url: body.url ?? `${origin}/s/${body.id}`, deleteSecret: body.deleteSecret, expiresAt: body.expiresAt };
}

export async function revokeOnServer(origin: string, id: string, deleteSecret: string, f: typeof fetch = fetch): Promise<void> {
  const res = await f(`${origin}/api/shares/${encodeURIComponent(id)}`, { method: "DELETE", headers: { "x-delete-secret": deleteSecret } });
  if (res.status !== 204) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new Error(body.error ?? `The server refused to revoke the link (${res.status}).`);
  }
}

/** Fetch a stored package; a revoked or expired link throws its own sentence. */
export async function fetchShare(origin: string, id: string, f: typeof fetch = fetch): Promise<Uint8Array> {
  const res = await f(`${origin}/api/shares/${encodeURIComponent(id)}`);
  if (!res.ok) {
    const body = (await res.json().catch(() => ({}))) as { error?: string };
    throw new Error(body.error ?? `This link could not be opened (${res.status}).`);
  }
  return new Uint8Array(await res.arrayBuffer());
}

export type SavedLink = { id: string; url: string; deleteSecret: string; title: string; createdAt: number; expiresAt?: number; revoked?: boolean };

/** The links published from this browser (localStorage), newest first. */
export class SavedLinks {
  static readonly KEY = "tabula:shared-links";
  constructor(private readonly storage: Pick<Storage, "getItem" | "setItem">) {}
  list(): SavedLink[] {
    try {
      const v = JSON.parse(this.storage.getItem(SavedLinks.KEY) ?? "[]") as SavedLink[];
      return Array.isArray(v) ? v : [];
    } catch {
      return [];
    }
  }
  add(link: SavedLink) {
    this.storage.setItem(SavedLinks.KEY, JSON.stringify([link, ...this.list().filter((l) => l.id !== link.id)].slice(0, 200)));
  }
  markRevoked(id: string) {
    this.storage.setItem(SavedLinks.KEY, JSON.stringify(this.list().map((l) => (l.id === id ? { ...l, revoked: true } : l))));
  }
}
