/**
 * Readline-style editing of one command line for an xterm terminal: it turns keystrokes (the
 * raw strings xterm's onData hands over) into line state plus the escape sequences that redraw it.
 * Framework-free and terminal-agnostic, so it is unit-tested in Node.
 */
export interface LineHistory {
  previous(current: string): string | undefined;
  next(): string | undefined;
  reset(): void;
}

export type LineAction =
  | { kind: "none" }
  | { kind: "submit"; line: string }
  | { kind: "interrupt" }
  | { kind: "clear-screen" }
  | { kind: "complete"; line: string; cursor: number }
  | { kind: "eof" };

const ESC = "\x1b";

/** Display width of a string in terminal cells (approximation: one cell per code point). */
function width(s: string): number {
  return Array.from(s).length;
}

export class LineEditor {
  line = "";
  /** Cursor position as an index into `line` (UTF-16). */
  cursor = 0;
  private out: string[] = [];

  constructor(private readonly history?: LineHistory) {}

  /** Escape sequences produced since the last call, to write to the terminal. */
  flush(): string {
    const s = this.out.join("");
    this.out = [];
    return s;
  }

  /** Replace the whole line (history recall, completion) and redraw it. */
  setLine(text: string, cursor = text.length) {
    this.moveTo(0);
    this.out.push(text, `${ESC}[K`);
    this.line = text;
    this.cursor = text.length;
    this.moveTo(cursor);
  }

  /** Forget the line without redrawing (after submit or interrupt). */
  reset() {
    this.line = "";
    this.cursor = 0;
    this.history?.reset();
  }

  private moveTo(target: number) {
    const delta = width(this.line.slice(0, target)) - width(this.line.slice(0, this.cursor));
    if (delta < 0) this.out.push(`${ESC}[${-delta}D`);
    if (delta > 0) this.out.push(`${ESC}[${delta}C`);
    this.cursor = target;
  }

  private insert(text: string) {
    const tail = this.line.slice(this.cursor);
    this.line = this.line.slice(0, this.cursor) + text + tail;
    this.out.push(text + tail);
    if (tail) this.out.push(`${ESC}[${width(tail)}D`);
    this.cursor += text.length;
  }

  /** Delete line[from, to) and redraw from `from`. */
  private deleteRange(from: number, to: number) {
    if (from >= to) return;
    this.moveTo(from);
    const removed = width(this.line.slice(from, to));
    this.line = this.line.slice(0, from) + this.line.slice(to);
    const tail = this.line.slice(from);
    this.out.push(tail + " ".repeat(removed));
    const back = width(tail) + removed;
    if (back) this.out.push(`${ESC}[${back}D`);
  }

  private wordStartBefore(i: number): number {
    let j = i;
    while (j > 0 && this.line[j - 1] === " ") j--;
    while (j > 0 && this.line[j - 1] !== " ") j--;
    return j;
  }

  private wordEndAfter(i: number): number {
    let j = i;
    while (j < this.line.length && this.line[j] === " ") j++;
    while (j < this.line.length && this.line[j] !== " ") j++;
    return j;
  }

  /** Feed one chunk from xterm's onData (a key, an escape sequence, or pasted text). */
  feed(data: string): LineAction {
    switch (data) {
      case "\r":
        return { kind: "submit", line: this.line };
      case "\x03": // Ctrl-C
        return { kind: "interrupt" };
      case "\x0c": // Ctrl-L
        return { kind: "clear-screen" };
      case "\x04": // Ctrl-D
        if (this.line === "") return { kind: "eof" };
        this.deleteRange(this.cursor, Math.min(this.line.length, this.cursor + 1));
        return { kind: "none" };
      case "\t":
        return { kind: "complete", line: this.line, cursor: this.cursor };
      case "\x7f": // Backspace
      case "\b":
        if (this.cursor > 0) this.deleteRange(this.cursor - 1, this.cursor);
        return { kind: "none" };
      case `${ESC}[3~`: // Delete
        this.deleteRange(this.cursor, Math.min(this.line.length, this.cursor + 1));
        return { kind: "none" };
      case `${ESC}[D`:
      case "\x02": // Ctrl-B
        if (this.cursor > 0) this.moveTo(this.cursor - 1);
        return { kind: "none" };
      case `${ESC}[C`:
      case "\x06": // Ctrl-F
        if (this.cursor < this.line.length) this.moveTo(this.cursor + 1);
        return { kind: "none" };
      case `${ESC}[H`:
      case `${ESC}OH`:
      case `${ESC}[1~`:
      case "\x01": // Ctrl-A
        this.moveTo(0);
        return { kind: "none" };
      case `${ESC}[F`:
      case `${ESC}OF`:
      case `${ESC}[4~`:
      case "\x05": // Ctrl-E
        this.moveTo(this.line.length);
        return { kind: "none" };
      case "\x15": // Ctrl-U: delete to start
        this.deleteRange(0, this.cursor);
        return { kind: "none" };
      case "\x0b": // Ctrl-K: delete to end
        this.deleteRange(this.cursor, this.line.length);
        return { kind: "none" };
      case "\x17": // Ctrl-W: delete previous word
        this.deleteRange(this.wordStartBefore(this.cursor), this.cursor);
        return { kind: "none" };
      case `${ESC}b`: // Alt-B
      case `${ESC}[1;5D`: // Ctrl-Left
        this.moveTo(this.wordStartBefore(this.cursor));
        return { kind: "none" };
      case `${ESC}f`: // Alt-F
      case `${ESC}[1;5C`: // Ctrl-Right
        this.moveTo(this.wordEndAfter(this.cursor));
        return { kind: "none" };
      case `${ESC}[A`: {
        const prev = this.history?.previous(this.line);
        if (prev !== undefined) this.setLine(prev);
        return { kind: "none" };
      }
      case `${ESC}[B`: {
        const next = this.history?.next();
        if (next !== undefined) this.setLine(next);
        return { kind: "none" };
      }
    }
    if (data.startsWith(ESC)) return { kind: "none" }; // other escape sequences: ignore
    // Typed or pasted text: a multi-line paste submits its first line and keeps the rest typed.
    const newline = data.search(/\r\n|\r|\n/);
    if (newline !== -1) {
      this.insert(stripControls(data.slice(0, newline)));
      return { kind: "submit", line: this.line };
    }
    const text = stripControls(data);
    if (text) this.insert(text);
    return { kind: "none" };
  }
}

function stripControls(s: string): string {
  return s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "").replace(/\t/g, "  ");
}

/** Terminal output: LF → CRLF so lines start at column 0. */
export function toTerminalText(s: string): string {
  return s.replace(/\r?\n/g, "\r\n");
}
