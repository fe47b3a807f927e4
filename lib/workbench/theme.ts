/**
 * The colour theme: the user's choice (light, dark, or the system's), kept in this browser, and
 * whether the workbench is dark now. One source for the page's colours, Monaco (editor, diff,
 * viewers) and the terminal, so that switching — by the choice or by the OS — switches them all.
 *
 * Framework-free: the storage and the system query are passed in (the browser's by default).
 */
export type ThemeChoice = "system" | "light" | "dark";

export const THEME_CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];
const KEY = "tabula.theme";

interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

interface MediaLike {
  matches: boolean;
  addEventListener(type: "change", fn: () => void): void;
  removeEventListener(type: "change", fn: () => void): void;
}

export class ThemeStore {
  private listeners = new Set<() => void>();
  private choiceNow: ThemeChoice;

  constructor(
    private readonly storage: StorageLike | undefined,
    private readonly media: MediaLike | undefined,
  ) {
    const saved = storage?.getItem(KEY);
    this.choiceNow = THEME_CHOICES.includes(saved as ThemeChoice) ? (saved as ThemeChoice) : "system";
    media?.addEventListener("change", () => {
      if (this.choiceNow === "system") this.notify();
    });
  }

  get choice(): ThemeChoice {
    return this.choiceNow;
  }

  /** Dark now: the choice, or the system's when the choice is "system". */
  get dark(): boolean {
    return this.choiceNow === "dark" || (this.choiceNow === "system" && !!this.media?.matches);
  }

  choose(choice: ThemeChoice): void {
    if (!THEME_CHOICES.includes(choice)) throw new Error(`Unknown theme "${choice}"`);
    this.choiceNow = choice;
    try {
      this.storage?.setItem(KEY, choice);
    } catch {
      // A full or blocked storage keeps the choice for this tab only.
    }
    this.notify();
  }

  /** Called whenever `dark` may have changed (a choice, or the system's switch while on "system"). */
  subscribe(fn: () => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private notify(): void {
    for (const fn of this.listeners) fn();
  }
}

let shared: ThemeStore | undefined;

/** The page's theme store (one per page). */
export function workbenchTheme(): ThemeStore {
  if (!shared) {
    const hasWindow = typeof window !== "undefined";
    shared = new ThemeStore(hasWindow ? window.localStorage : undefined, hasWindow && typeof matchMedia === "function" ? matchMedia("(prefers-color-scheme: dark)") : undefined);
  }
  return shared;
}
