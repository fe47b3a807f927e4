/**
 * Readline-style editing of one command line for an xterm terminal: it turns keystrokes (the
 * raw strings xterm's onData hands over) into line state plus the escape sequences that redraw it.
 * Framework-free and terminal-agnostic, so it is unit-tested in Node (and against a headless xterm).
 *
 * - Widths are terminal cells (char-width.ts): wide CJK and emoji take two, combining marks
 *   none; the cursor moves and deletes by grapheme.
 * - A line longer than the terminal wraps; the editor knows the prompt's width and the number of
 *   columns, and moves the cursor by rows and columns, so it stays right across wrapped rows.
 * - Pasted text with several lines runs line by line, in order, as bash does: the first complete
 *   line is submitted, the rest is queued and fed again by `resume()` once that command is done;
 *   a last line without a newline stays typed at the prompt.
 */
import { codePointWidth, graphemes, visibleWidth, type Grapheme } from "./char-width";

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

/** A cell position relative to the first cell of the prompt's row. */
type Pos = { row: number; col: number };

export class LineEditor {
  line = "";
  /** Cursor position as an index into `line` (UTF-16, always on a grapheme boundary). */
  cursor = 0;
  private out: string[] = [];
  private columns: number;
  private promptWidth = 0;
  /** Where the terminal's cursor is now. */
  private at: Pos = { row: 0, col: 0 };
  /** Input received but not yet edited: the rest of a multi-line paste, keys typed meanwhile. */
  private queued: string[] = [];

  constructor(
    private readonly history?: LineHistory,
    opts: { columns?: number } = {},
  ) {
    this.columns = Math.max(1, opts.columns ?? 80);
  }

  /** Escape sequences produced since the last call, to write to the terminal. */
  flush(): string {
    const s = this.out.join("");
    this.out = [];
    return s;
  }

  /** The terminal's width changed (xterm reflows what is on screen; positions follow it). */
  setColumns(columns: number) {
    this.columns = Math.max(1, columns);
    this.at = this.position(this.cursor);
  }

  /**
   * A prompt is about to be shown: write it, then the line (kept when redrawing after a clear
   * or a completion list). The terminal's cursor must be at the start of a row.
   */
  prompt(text: string, keepLine = false) {
    this.out.push(text);
    this.promptWidth = visibleWidth(text);
    this.at = this.offsetPos(this.promptWidth);
    if (!keepLine) {
      this.line = "";
      this.cursor = 0;
      return;
    }
    const cursor = this.cursor;
    this.cursor = 0;
    this.redrawFrom(0);
    this.moveTo(cursor);
  }

  /** Replace the whole line (history recall, completion) and redraw it. */
  setLine(text: string, cursor = text.length) {
    this.moveTo(0);
    this.line = text;
    this.cursor = 0;
    this.redrawFrom(0);
    this.moveTo(this.snap(cursor));
  }

  /** Nothing typed at the prompt yet. */
  get isEmpty(): boolean {
    return this.line === "";
  }

  /** Forget the line without redrawing (after submit or interrupt). */
  reset() {
    this.line = "";
    this.cursor = 0;
    this.history?.reset();
  }

  /** Keep input for later (typed while a command runs): `resume()` feeds it in order. */
  enqueue(data: string) {
    this.queued.push(data);
  }

  /** Drop queued input (Ctrl-C stops a multi-line paste, as in bash). */
  discardQueued() {
    this.queued = [];
  }

  get hasQueued(): boolean {
    return this.queued.length > 0;
  }

  /** Feed queued input until it produces an action (the next line of a paste) or runs out. */
  resume(): LineAction {
    while (this.queued.length > 0) {
      const action = this.feed(this.queued.shift()!);
      if (action.kind !== "none") return action;
    }
    return { kind: "none" };
  }

  // ---- layout ---------------------------------------------------------------------------------

  private offsetPos(offset: number): Pos {
    return { row: Math.floor(offset / this.columns), col: offset % this.columns };
  }

  /**
   * Screen position of the grapheme boundary at UTF-16 index `index` of the line: where the
   * grapheme there is drawn (`drawn`), and the cell just after the one before it (`after`). They
   * differ when a wide character does not fit at the end of a row and is drawn on the next one.
   */
  private layout(index: number): { drawn: Pos; after: Pos } {
    let { row, col } = this.offsetPos(this.promptWidth);
    // xterm places each code point that takes cells on its own (a ZWJ family is three wide
    // cells, which may wrap apart); zero-width ones join the cell before.
    for (const g of graphemes(this.line)) {
      const units = cellUnits(g.text);
      if (g.index >= index) {
        const after = { row, col };
        const first = units[0] ?? 0;
        return { drawn: col + first > this.columns ? { row: row + 1, col: 0 } : after, after };
      }
      for (const w of units) {
        if (col + w > this.columns) {
          row++;
          col = 0;
        }
        col += w;
        if (col >= this.columns) {
          row++;
          col = 0;
        }
      }
    }
    return { drawn: { row, col }, after: { row, col } };
  }

  /** Where the cursor shows when it is before the grapheme at `index`. */
  private position(index: number): Pos {
    return this.layout(index).drawn;
  }

  private goTo(target: Pos) {
    const dy = target.row - this.at.row;
    if (dy < 0) this.out.push(`${ESC}[${-dy}A`);
    if (dy > 0) this.out.push(`${ESC}[${dy}B`);
    if (dy !== 0 || target.col !== this.at.col) this.out.push(target.col === 0 ? "\r" : `${ESC}[${target.col + 1}G`);
    this.at = target;
  }

  private moveTo(index: number) {
    this.goTo(this.position(index));
    this.cursor = index;
  }

  /**
   * Rewrite the line from UTF-16 index `from` to its end, clear what was drawn after it, and
   * leave the cursor at `from`.
   */
  private redrawFrom(from: number) {
    // From the cell after the previous character: if the next one is wide and wraps, xterm
    // blanks the cell it leaves at the row's end (which may hold a stale character).
    this.goTo(this.layout(from).after);
    const tail = this.line.slice(from);
    const end = this.position(this.line.length);
    if (tail) this.out.push(tail);
    // Ending exactly at the right margin leaves xterm's cursor "pending" in the last column:
    // move it to the next row for real, so later moves count from a known cell.
    if (tail && end.col === 0) this.out.push("\r\n");
    this.out.push(`${ESC}[J`);
    this.at = end;
    this.cursor = from;
    this.goTo(this.position(from));
  }

  private segments(): Grapheme[] {
    return graphemes(this.line);
  }

  /** The grapheme boundary at or before `index`. */
  private snap(index: number): number {
    let best = 0;
    for (const g of this.segments()) {
      if (g.index > index) break;
      best = g.index;
    }
    return index >= this.line.length ? this.line.length : best;
  }

  private prevBoundary(i: number): number {
    let prev = 0;
    for (const g of this.segments()) {
      if (g.index >= i) break;
      prev = g.index;
    }
    return prev;
  }

  private nextBoundary(i: number): number {
    for (const g of this.segments()) if (g.index > i) return g.index;
    return this.line.length;
  }

  // ---- editing --------------------------------------------------------------------------------

  private insert(text: string) {
    const at = this.cursor;
    this.line = this.line.slice(0, at) + text + this.line.slice(at);
    // Redraw from the start of the grapheme the insertion joined (a combining mark extends it).
    this.redrawFrom(this.snapBefore(at));
    this.moveTo(this.snap(at + text.length));
  }

  /** The start of the grapheme that contains index `i` (or `i` itself on a boundary). */
  private snapBefore(i: number): number {
    let start = 0;
    for (const g of this.segments()) {
      if (g.index > i) break;
      start = g.index;
    }
    return start;
  }

  /** Delete line[from, to) and redraw from `from`. */
  private deleteRange(from: number, to: number) {
    if (from >= to) return;
    this.moveTo(from);
    this.line = this.line.slice(0, from) + this.line.slice(to);
    this.redrawFrom(from);
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

  /** Move below the input, to the start of a fresh row (before output, a completion list…). */
  leaveLine(): void {
    this.finishLine();
  }

  /** Leave the cursor after the end of the input, on a fresh row, before the command's output. */
  private finishLine(): string {
    const end = this.position(this.line.length);
    this.goTo(end);
    // A line that ended exactly at the margin is already on a fresh row (see redrawFrom).
    if (!(this.line && end.col === 0)) {
      this.out.push("\r\n");
      this.at = { row: this.at.row + 1, col: 0 };
    }
    return this.line;
  }

  private finishLineAfterText() {
    this.out.push("\r\n");
    this.at = { row: this.at.row + 1, col: 0 };
  }

  /** Feed one chunk from xterm's onData (a key, an escape sequence, or pasted text). */
  feed(data: string): LineAction {
    switch (data) {
      case "\r":
        return { kind: "submit", line: this.finishLine() };
      case "\x03": // Ctrl-C: show ^C after the input, as bash does, and drop the rest of a paste
        this.discardQueued();
        this.goTo(this.position(this.line.length));
        this.out.push("^C");
        this.at = { row: this.at.row, col: this.at.col + 2 };
        this.finishLineAfterText();
        return { kind: "interrupt" };
      case "\x0c": // Ctrl-L
        return { kind: "clear-screen" };
      case "\x04": // Ctrl-D
        if (this.line === "") return { kind: "eof" };
        this.deleteRange(this.cursor, this.nextBoundary(this.cursor));
        return { kind: "none" };
      case "\t":
        return { kind: "complete", line: this.line, cursor: this.cursor };
      case "\x7f": // Backspace
      case "\b":
        if (this.cursor > 0) this.deleteRange(this.prevBoundary(this.cursor), this.cursor);
        return { kind: "none" };
      case `${ESC}[3~`: // Delete
        this.deleteRange(this.cursor, this.nextBoundary(this.cursor));
        return { kind: "none" };
      case `${ESC}[D`:
      case "\x02": // Ctrl-B
        if (this.cursor > 0) this.moveTo(this.prevBoundary(this.cursor));
        return { kind: "none" };
      case `${ESC}[C`:
      case "\x06": // Ctrl-F
        if (this.cursor < this.line.length) this.moveTo(this.nextBoundary(this.cursor));
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
    // Typed or pasted text. With line breaks (a paste): the first line is submitted now, the rest
    // waits in the queue for resume(), ahead of anything queued before.
    const newline = /\r\n|\r|\n/.exec(data);
    if (newline) {
      const first = stripControls(data.slice(0, newline.index));
      const rest = data.slice(newline.index + newline[0].length);
      if (rest) this.queued.unshift(rest);
      if (first) this.insert(first);
      return { kind: "submit", line: this.finishLine() };
    }
    const text = stripControls(data);
    if (text) this.insert(text);
    return { kind: "none" };
  }
}

/** Widths of the code points of a grapheme that take cells, in order. */
function cellUnits(text: string): number[] {
  const out: number[] = [];
  for (const ch of text) {
    const w = codePointWidth(ch.codePointAt(0)!);
    if (w > 0) out.push(w);
  }
  return out;
}

function stripControls(s: string): string {
  return s.replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "").replace(/\t/g, "  ");
}

/** Terminal output: LF → CRLF so lines start at column 0. */
export function toTerminalText(s: string): string {
  return s.replace(/\r?\n/g, "\r\n");
}
