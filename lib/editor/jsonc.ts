/**
 * JSON with comments, as tsconfig.json and jsconfig.json are written: `//` and `/* *\/` comments
 * and trailing commas are allowed. Bad input gives an error with its line, never a throw, so a
 * half-typed config degrades to the defaults instead of breaking the editor.
 */
export type JsoncResult = { ok: true; value: unknown } | { ok: false; error: string };

/** The text with comments blanked out and trailing commas dropped; strings left exactly as they are. */
export function stripJsonc(text: string): string {
  let out = "";
  let i = 0;
  const n = text.length;
  while (i < n) {
    const c = text[i];
    if (c === '"') {
      const start = i++;
      while (i < n && text[i] !== '"') i += text[i] === "\\" ? 2 : 1;
      i++;
      out += text.slice(start, i);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < n && text[i] !== "\n") i++;
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      const stop = end === -1 ? n : end + 2;
      // Keep the newlines so error positions still point at the right line.
      out += text.slice(i, stop).replace(/[^\n]/g, " ");
      i = stop;
    } else if (c === ",") {
      let j = i + 1;
      // A comma followed (past blanks and comments) by a closing bracket is a trailing comma.
      let rest = "";
      while (j < n) {
        if (/\s/.test(text[j])) j++;
        else if (text[j] === "/" && text[j + 1] === "/") while (j < n && text[j] !== "\n") j++;
        else if (text[j] === "/" && text[j + 1] === "*") {
          const end = text.indexOf("*/", j + 2);
          j = end === -1 ? n : end + 2;
        } else {
          rest = text[j];
          break;
        }
      }
      if (rest !== "}" && rest !== "]") out += c;
      i++;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

export function parseJsonc(text: string): JsoncResult {
  const stripped = stripJsonc(text.replace(/^\uFEFF/, ""));
  if (stripped.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(stripped) };
  } catch (e) {
    const message = (e as Error).message;
    const at = /position (\d+)/.exec(message);
    const line = at ? stripped.slice(0, Number(at[1])).split("\n").length : undefined;
    return { ok: false, error: line ? `${message} (line ${line})` : message };
  }
}
