import { describe, expect, it } from "vitest";
import { Unicode11Addon } from "@xterm/addon-unicode11";
import { Terminal } from "@xterm/headless";
import fc from "fast-check";
import { graphemes, stringWidth } from "../../lib/terminal/char-width";
import { LineEditor, toTerminalText, type LineHistory } from "../../lib/terminal/line-editor";

/** The smallest history with readline's navigation: a draft kept while walking back. */
function history(entries: string[]): LineHistory {
  let pos = entries.length;
  let draft = "";
  return {
    previous(current) {
      if (entries.length === 0) return undefined;
      if (pos === entries.length) draft = current;
      if (pos > 0) pos--;
      return entries[pos];
    },
    next() {
      if (pos >= entries.length) return undefined;
      pos++;
      return pos === entries.length ? draft : entries[pos];
    },
    reset() {
      pos = entries.length;
      draft = "";
    },
  };
}

function typed(editor: LineEditor, ...keys: string[]) {
  let last;
  for (const k of keys) last = editor.feed(k);
  return last;
}

describe("terminal line editor", () => {
  it("inserts text and submits the line on Enter", () => {
    const e = new LineEditor();
    typed(e, "e", "c", "h", "o", " hi");
    expect(e.line).toBe("echo hi");
    expect(e.feed("\r")).toEqual({ kind: "submit", line: "echo hi" });
  });

  it("moves with arrows, Home/End, Ctrl-A/E and edits in the middle", () => {
    const e = new LineEditor();
    typed(e, "abcd", "\x1b[D", "\x1b[D", "X");
    expect(e.line).toBe("abXcd");
    typed(e, "\x01", "<");
    expect(e.line).toBe("<abXcd");
    typed(e, "\x05", ">");
    expect(e.line).toBe("<abXcd>");
    typed(e, "\x1b[H", "\x1b[3~");
    expect(e.line).toBe("abXcd>");
    typed(e, "\x1b[F", "\x7f");
    expect(e.line).toBe("abXcd");
  });

  it("Ctrl-U, Ctrl-K and Ctrl-W delete to start, to end and the previous word", () => {
    const e = new LineEditor();
    typed(e, "git commit -m msg", "\x17");
    expect(e.line).toBe("git commit -m ");
    typed(e, "\x1b[D", "\x1b[D", "\x1b[D", "\x0b");
    expect(e.line).toBe("git commit ");
    typed(e, "\x1b[D", "\x15");
    expect(e.line).toBe(" ");
  });

  it("recalls history with the arrows and keeps the draft", () => {
    const e = new LineEditor(history(["ls", "git status"]));
    typed(e, "dra");
    typed(e, "\x1b[A");
    expect(e.line).toBe("git status");
    typed(e, "\x1b[A");
    expect(e.line).toBe("ls");
    typed(e, "\x1b[B", "\x1b[B");
    expect(e.line).toBe("dra");
  });

  it("reports Ctrl-C, Ctrl-L, Tab and Ctrl-D on an empty line", () => {
    const e = new LineEditor();
    expect(e.feed("\x03")).toEqual({ kind: "interrupt" });
    expect(e.feed("\x0c")).toEqual({ kind: "clear-screen" });
    expect(e.feed("\x04")).toEqual({ kind: "eof" });
    typed(e, "ca");
    expect(e.feed("\t")).toEqual({ kind: "complete", line: "ca", cursor: 2 });
  });

  it("a pasted multi-line text runs line by line, in order; the last partial line stays typed", () => {
    const e = new LineEditor();
    expect(e.feed("echo a\x07b\recho c\r\necho d\nvi")).toEqual({ kind: "submit", line: "echo ab" });
    e.reset();
    // Typed while "echo ab" runs: kept after the rest of the paste.
    e.enqueue("m");
    expect(e.resume()).toEqual({ kind: "submit", line: "echo c" });
    e.reset();
    expect(e.resume()).toEqual({ kind: "submit", line: "echo d" });
    e.reset();
    expect(e.resume()).toEqual({ kind: "none" });
    expect(e.line).toBe("vim");
    expect(e.hasQueued).toBe(false);
  });

  it("Ctrl-C drops the rest of a paste", () => {
    const e = new LineEditor();
    expect(e.feed("one\rtwo\rthree\r")).toEqual({ kind: "submit", line: "one" });
    e.reset();
    e.feed("\x03");
    expect(e.resume()).toEqual({ kind: "none" });
    expect(e.line).toBe("");
  });

  it("moves and deletes by grapheme: combining marks, ZWJ families and flags are one step", () => {
    const e = new LineEditor();
    typed(e, "ae\u0301", "b");
    expect(e.line).toBe("ae\u0301b");
    typed(e, "\x1b[D", "\x1b[D");
    expect(e.cursor).toBe(1);
    typed(e, "\x1b[3~");
    expect(e.line).toBe("ab");
    typed(e, "\x05", "👨‍👩‍👧", "🇫🇷", "\x7f");
    expect(e.line).toBe("ab👨‍👩‍👧");
    typed(e, "\x7f");
    expect(e.line).toBe("ab");
  });
});

describe("char widths", () => {
  it("counts cells as xterm's Unicode 11 tables do", () => {
    expect(stringWidth("abc")).toBe(3);
    expect(stringWidth("中文")).toBe(4);
    expect(stringWidth("😀")).toBe(2);
    expect(stringWidth("e\u0301")).toBe(1);
    expect(stringWidth("🇫🇷")).toBe(2);
    expect(stringWidth("Ａ")).toBe(2);
    expect(stringWidth("ｱ")).toBe(1);
    expect(stringWidth("가")).toBe(2);
    expect(stringWidth("\u200b\u200d\ufe0f")).toBe(0);
    expect(graphemes("e\u0301👨‍👩‍👧x").map((g) => [g.index, g.width])).toEqual([[0, 1], [2, 6], [10, 1]]);
  });
});

/**
 * The editor's output drawn by a real xterm (headless, with the Unicode 11 widths the view
 * uses): the screen must show prompt + line, and xterm's cursor must sit on the cell where the
 * grapheme at the editor's cursor is drawn (or just after the line's end).
 */
describe("against xterm (headless)", () => {
  const PROMPT = "\x1b[36m~\x1b[0m $ ";

  function terminal(cols: number) {
    const term = new Terminal({ cols, rows: 30, allowProposedApi: true });
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = "11";
    return term;
  }

  const write = (term: Terminal, data: string) => new Promise<void>((resolve) => term.write(data, resolve));

  /** Every drawn cell from the prompt's row on, in order, with its position. */
  function cells(term: Terminal) {
    const out: { row: number; col: number; chars: string }[] = [];
    const buf = term.buffer.active;
    for (let row = 0; row < buf.length; row++) {
      const line = buf.getLine(row)!;
      for (let col = 0; col < term.cols; col++) {
        const cell = line.getCell(col)!;
        if (cell.getWidth() === 0) continue;
        out.push({ row, col, chars: cell.getChars() });
      }
    }
    return out;
  }

  async function check(term: Terminal, e: LineEditor) {
    await write(term, e.flush());
    const text = "~ $ " + e.line;
    const all = cells(term);
    // Walk the graphemes of what should be on screen, consuming cells ("" cells are the blank a
    // wide character leaves at a row's end when it wraps).
    let k = 0;
    let cursorCell: { row: number; col: number } | undefined;
    const prefix = 4;
    for (const g of graphemes(text)) {
      while (all[k] && all[k]!.chars === "") k++;
      const first = all[k];
      expect(first, `grapheme ${JSON.stringify(g.text)} missing on screen`).toBeDefined();
      if (g.index - prefix === e.cursor) cursorCell = { row: first!.row, col: first!.col };
      let drawn = "";
      while (all[k] && drawn !== g.text) drawn += all[k++]!.chars;
      expect(drawn).toBe(g.text);
    }
    // Nothing is left drawn after the line.
    expect(all.slice(k).filter((c) => c.chars !== "" && c.chars !== " ")).toEqual([]);
    const buf = term.buffer.active;
    if (e.cursor === e.line.length) {
      // Just after the last cell written.
      const last = [...all.slice(0, k)].reverse().find((c) => c.chars !== "")!;
      const endCol = last.col + stringWidth(last.chars);
      cursorCell = endCol >= term.cols ? { row: last.row + 1, col: 0 } : { row: last.row, col: endCol };
    }
    expect({ row: buf.cursorY, col: buf.cursorX }).toEqual(cursorCell);
  }

  it("keeps the cursor right with wide, combining and emoji characters", async () => {
    const term = terminal(40);
    const e = new LineEditor(undefined, { columns: 40 });
    e.prompt(PROMPT);
    for (const key of ["echo ", "中文", "😀", " e\u0301t\u00e9", "\x1b[D", "\x1b[D", "\x1b[D", "X", "\x01", "\x1b[C", "\x1b[C", "\x1b[C", "\x1b[C", "\x1b[C", "\x1b[C", "\x7f", "界", "\x05", "👨‍👩‍👧", "\x1b[D", "\x1b[3~", "\x17"]) {
      e.feed(key);
      await check(term, e);
    }
  });

  it("wraps long lines and moves across wrapped rows, both ways", async () => {
    const term = terminal(12);
    const e = new LineEditor(undefined, { columns: 12 });
    e.prompt(PROMPT);
    await check(term, e);
    const keys = ["git commit -m 'a fairly long message'", "\x01", "\x1b[C", "\x1b[1;5C", "\x1b[1;5C", "\x1b[1;5C", "\x1b[1;5D", "中", "中", "中", "\x05", "\x1b[D", "\x1b[D", "\x7f", "\x7f", "\x15", "\x05", "12345678", "9", "\x7f", "9", "中", "\x01", "\x0b"];
    for (const key of keys) {
      e.feed(key);
      await check(term, e);
    }
  });

  it("puts a wide character that does not fit on the next row, and back", async () => {
    const term = terminal(10);
    const e = new LineEditor(undefined, { columns: 10 });
    e.prompt(PROMPT); // 4 cells
    for (const key of ["abcde", "中", "\x1b[D", "\x1b[D", "x", "\x1b[C", "\x7f", "\x7f", "中文字", "\x01", "\x05"]) {
      e.feed(key);
      await check(term, e);
    }
  });

  it("recalls a long history entry over a short one and the other way", async () => {
    const term = terminal(15);
    const e = new LineEditor(history(["ls", "echo a long line that wraps twice over 15 columns"]), { columns: 15 });
    e.prompt(PROMPT);
    for (const key of ["\x1b[A", "\x1b[A", "\x1b[B", "\x1b[D", "\x1b[D", "\x1b[B"]) {
      e.feed(key);
      await check(term, e);
    }
  });

  it("any sequence of keys, at any width: the screen and the cursor agree with the line", async () => {
    const keys = ["a", "xyz ", "中", "😀", "e\u0301", "👨‍👩‍👧", "Ａ", " ", "\x1b[D", "\x1b[C", "\x01", "\x05", "\x7f", "\x1b[3~", "\x17", "\x0b", "\x15", "\x1b[1;5D", "\x1b[1;5C"];
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 6, max: 24 }), fc.array(fc.constantFrom(...keys), { minLength: 1, maxLength: 40 }), async (cols, sequence) => {
        const term = terminal(cols);
        const e = new LineEditor(undefined, { columns: cols });
        e.prompt(PROMPT);
        for (const key of sequence) {
          e.feed(key);
          await check(term, e);
        }
        term.dispose();
      }),
      { numRuns: 60 },
    );
  });
});
