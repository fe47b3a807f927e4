/**
 * Whether `npm install` may download packages, and from which registry: the user's choice, kept
 * in this browser (localStorage in the app), off until they allow it — the tab reaches no
 * network the user has not configured.
 *
 * Framework-free.
 */
import type { RegistryAccess } from "./registry";

export const PACKAGE_SETTINGS_KEY = "tabula.packages.v1";
export const DEFAULT_REGISTRY = "https://registry.npmjs.org";

export type PackageSettings = { allowDownloads: boolean; registry: string };

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

export class PackageSettingsStore {
  constructor(
    private readonly storage: Storage,
    private readonly fetchImpl: () => typeof fetch = () => globalThis.fetch.bind(globalThis),
  ) {}

  get(): PackageSettings {
    try {
      const raw = JSON.parse(this.storage.getItem(PACKAGE_SETTINGS_KEY) ?? "null") as Partial<PackageSettings> | null;
      const registry = typeof raw?.registry === "string" && validRegistry(raw.registry) ? raw.registry : DEFAULT_REGISTRY;
      return { allowDownloads: raw?.allowDownloads === true, registry };
    } catch {
      return { allowDownloads: false, registry: DEFAULT_REGISTRY };
    }
  }

  /** Save; an address that is not http(s) is refused with the reason. */
  set(next: PackageSettings): void {
    const registry = next.registry.trim().replace(/\/+$/, "") || DEFAULT_REGISTRY;
    if (!validRegistry(registry)) throw new Error(`The registry must be an http:// or https:// address (got ${JSON.stringify(next.registry)})`);
    this.storage.setItem(PACKAGE_SETTINGS_KEY, JSON.stringify({ allowDownloads: next.allowDownloads, registry }));
  }

  /** What `npm install` uses: the registry when downloads are allowed, else undefined. Read on each install. */
  access(): RegistryAccess | undefined {
    const s = this.get();
    return s.allowDownloads ? { url: s.registry, fetch: this.fetchImpl() } : undefined;
  }
}

function validRegistry(url: string): boolean {
  try {
    const u = new URL(url);
    return u.protocol === "https:" || u.protocol === "http:";
  } catch {
    return false;
  }
}
