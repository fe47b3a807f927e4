/** Package downloads are off until allowed; the registry address is checked; damaged storage reads as the defaults. */
import { describe, expect, it } from "vitest";
import { DEFAULT_REGISTRY, PACKAGE_SETTINGS_KEY, PackageSettingsStore } from "../../lib/packages/settings";

function memory(init: Record<string, string> = {}) {
  const m = new Map(Object.entries(init));
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), dump: () => Object.fromEntries(m) };
}

describe("package settings", () => {
  it("are off by default, give access only when allowed, and keep the registry the user chose", () => {
    const storage = memory();
    const store = new PackageSettingsStore(storage, () => (() => Promise.reject(new Error("no network"))) as unknown as typeof fetch);
    expect(store.get()).toEqual({ allowDownloads: false, registry: DEFAULT_REGISTRY });
    expect(store.access()).toBeUndefined();
    store.set({ allowDownloads: true, registry: "http://127.0.0.1:4873/" });
    expect(store.access()?.url).toBe("http://127.0.0.1:4873");
    expect(JSON.parse(storage.dump()[PACKAGE_SETTINGS_KEY]!)).toEqual({ allowDownloads: true, registry: "http://127.0.0.1:4873" });
    expect(() => store.set({ allowDownloads: true, registry: "file:///etc/passwd" })).toThrow(/http:\/\/ or https:\/\//);
    expect(store.get().registry).toBe("http://127.0.0.1:4873");
  });

  it("reads damaged storage as the defaults (downloads off)", () => {
    expect(new PackageSettingsStore(memory({ [PACKAGE_SETTINGS_KEY]: "{nope" })).get()).toEqual({ allowDownloads: false, registry: DEFAULT_REGISTRY });
    expect(new PackageSettingsStore(memory({ [PACKAGE_SETTINGS_KEY]: JSON.stringify({ allowDownloads: "yes", registry: "javascript:alert(1)" }) })).get()).toEqual({ allowDownloads: false, registry: DEFAULT_REGISTRY });
  });
});
