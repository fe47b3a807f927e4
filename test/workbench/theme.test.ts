import { describe, expect, it } from "vitest";
import { ThemeStore } from "../../lib/workbench/theme";

function fakes(systemDark: boolean, saved?: string) {
  const data = new Map<string, string>(saved ? [["tabula.theme", saved]] : []);
  const storage = { getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
  const fns = new Set<() => void>();
  const media = {
    matches: systemDark,
    addEventListener: (_: "change", fn: () => void) => void fns.add(fn),
    removeEventListener: (_: "change", fn: () => void) => void fns.delete(fn),
    flip() {
      this.matches = !this.matches;
      for (const fn of fns) fn();
    },
  };
  return { storage, media, data };
}

describe("ThemeStore", () => {
  it("follows the system by default, and tells its listeners when the system switches", () => {
    const f = fakes(false);
    const t = new ThemeStore(f.storage, f.media);
    let calls = 0;
    t.subscribe(() => calls++);
    expect([t.choice, t.dark]).toEqual(["system", false]);
    f.media.flip();
    expect(t.dark).toBe(true);
    expect(calls).toBe(1);
  });

  it("a manual choice wins over the system, is remembered, and ignores the system's switches", () => {
    const f = fakes(true);
    const t = new ThemeStore(f.storage, f.media);
    let calls = 0;
    t.subscribe(() => calls++);
    t.choose("light");
    expect(t.dark).toBe(false);
    expect(f.data.get("tabula.theme")).toBe("light");
    f.media.flip();
    expect(calls).toBe(1);
    expect(new ThemeStore(f.storage, f.media).choice).toBe("light");
  });

  it("an unknown saved value falls back to the system; an unknown choice is refused", () => {
    const f = fakes(true, "purple");
    const t = new ThemeStore(f.storage, f.media);
    expect([t.choice, t.dark]).toEqual(["system", true]);
    expect(() => t.choose("purple" as never)).toThrow(/Unknown theme/);
  });
});
