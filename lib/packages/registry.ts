/**
 * An npm registry, read over fetch (the public registry answers CORS): a package's document
 * (its versions and dist-tags, in the abbreviated form npm itself asks for) and its tarballs,
 * checked against the integrity the registry published before anything is unpacked.
 *
 * Framework-free; the fetch and the registry's address are the user's setting (package
 * downloads are off until allowed).
 */
export type RegistryAccess = { url: string; fetch: typeof fetch };

export type PackageVersion = {
  name: string;
  version: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  bin?: string | Record<string, string>;
  os?: string[];
  cpu?: string[];
  deprecated?: string;
  dist: { tarball: string; integrity?: string; shasum?: string };
};

export type Packument = { name: string; "dist-tags"?: Record<string, string>; versions: Record<string, PackageVersion> };

export class RegistryError extends Error {}

export class Registry {
  private readonly documents = new Map<string, Promise<Packument>>();
  private readonly base: string;

  constructor(
    private readonly access: RegistryAccess,
    private readonly signal?: AbortSignal,
  ) {
    this.base = access.url.replace(/\/+$/, "");
  }

  get url(): string {
    return this.base;
  }

  /** A package's versions (fetched once per install). */
  packument(name: string): Promise<Packument> {
    let p = this.documents.get(name);
    if (!p) {
      p = this.fetchPackument(name);
      this.documents.set(name, p);
      p.catch(() => this.documents.delete(name));
    }
    return p;
  }

  private async fetchPackument(name: string): Promise<Packument> {
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*$/i.test(name)) throw new RegistryError(`"${name}" is not a valid package name`);
    const url = `${this.base}/${name.replace("/", "%2f")}`;
    const res = await this.get(url, "application/vnd.npm.install-v1+json; q=1.0, application/json; q=0.8");
    if (res.status === 404) throw new RegistryError(`404 Not Found - GET ${url} - "${name}" is not in this registry`);
    if (!res.ok) throw new RegistryError(`${res.status} ${res.statusText} - GET ${url}`);
    const doc = (await res.json()) as Packument;
    if (!doc || typeof doc !== "object" || !doc.versions || typeof doc.versions !== "object") throw new RegistryError(`GET ${url}: the registry's answer is not a package document`);
    return doc;
  }

  /** A tarball's bytes, after checking them against the published integrity (sha512, else the sha1 shasum). */
  async tarball(v: PackageVersion): Promise<Uint8Array> {
    const res = await this.get(v.dist.tarball, "application/octet-stream");
    if (!res.ok) throw new RegistryError(`${res.status} ${res.statusText} - GET ${v.dist.tarball}`);
    const bytes = new Uint8Array(await res.arrayBuffer());
    await verifyIntegrity(bytes, v);
    return bytes;
  }

  private async get(url: string, accept: string): Promise<Response> {
    try {
      return await this.access.fetch(url, { headers: { accept }, signal: this.signal });
    } catch (e) {
      if ((e as Error).name === "AbortError") throw e;
      throw new RegistryError(`could not reach the registry at ${this.base} (${(e as Error).message})`);
    }
  }
}

function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]!);
  return btoa(s);
}

function hex(bytes: Uint8Array): string {
  return [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Refuse bytes that do not match what the registry published for this version. */
export async function verifyIntegrity(bytes: Uint8Array, v: Pick<PackageVersion, "name" | "version" | "dist">): Promise<void> {
  const sri = v.dist.integrity?.split(/\s+/).find((s) => s.startsWith("sha512-"));
  const data = bytes as Uint8Array<ArrayBuffer>;
  if (sri) {
    const got = `sha512-${base64(new Uint8Array(await crypto.subtle.digest("SHA-512", data)))}`;
    if (got !== sri) throw new RegistryError(`EINTEGRITY: ${v.name}@${v.version}'s tarball does not match its published integrity (wanted ${sri}, got ${got}); nothing was installed`);
    return;
  }
  if (v.dist.shasum) {
    const got = hex(new Uint8Array(await crypto.subtle.digest("SHA-1", data)));
    if (got !== v.dist.shasum.toLowerCase()) throw new RegistryError(`EINTEGRITY: ${v.name}@${v.version}'s tarball does not match its published shasum; nothing was installed`);
    return;
  }
  throw new RegistryError(`${v.name}@${v.version} has no published integrity or shasum to check its tarball against; it was not installed`);
}
