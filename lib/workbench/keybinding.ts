/**
 * Keybindings as people write them ("Ctrl+Shift+P", "F1", "Ctrl+`"), parsed once and matched against
 * keyboard events. "Ctrl" means Ctrl or Cmd, so one binding serves Linux, Windows and macOS.
 */
export interface Keybinding {
  /** As written, for display. */
  label: string;
  mod: boolean;
  shift: boolean;
  alt: boolean;
  /** Lower-case `KeyboardEvent.key` ("p", "f1", "`", "enter"). */
  key: string;
}

/** The fields of a KeyboardEvent a binding looks at (so tests need no DOM). */
export interface KeyLike {
  key: string;
  code?: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
}

export function parseKeybinding(text: string): Keybinding {
  const parts = text.split("+").map((p) => p.trim());
  // "Ctrl++" binds the plus key: an empty part after a "+" is the key itself.
  const key = parts.pop() || (text.endsWith("+") ? "+" : "");
  if (!key) throw new Error(`"${text}" is not a keybinding: it names no key.`);
  const binding: Keybinding = { label: text, mod: false, shift: false, alt: false, key: key.toLowerCase() };
  for (const p of parts.filter(Boolean)) {
    const m = p.toLowerCase();
    if (m === "ctrl" || m === "cmd" || m === "meta") binding.mod = true;
    else if (m === "shift") binding.shift = true;
    else if (m === "alt" || m === "option") binding.alt = true;
    else throw new Error(`"${text}" is not a keybinding: unknown modifier "${p}".`);
  }
  return binding;
}

/** Keys whose `key` changes with Shift or the layout; their physical `code` decides instead. */
const BY_CODE: Record<string, string> = { "`": "Backquote" };

export function matchesKeybinding(binding: Keybinding, e: KeyLike): boolean {
  if (binding.mod !== (e.ctrlKey || e.metaKey) || binding.shift !== e.shiftKey || binding.alt !== e.altKey) return false;
  const code = BY_CODE[binding.key];
  if (code && e.code === code) return true;
  if (/^[a-z]$/.test(binding.key) && e.code === `Key${binding.key.toUpperCase()}`) return true;
  return e.key.toLowerCase() === binding.key;
}
