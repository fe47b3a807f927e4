import { describe, expect, it } from "vitest";
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

  it("a pasted multi-line text submits its first line; control characters are dropped", () => {
    const e = new LineEditor();
    expect(e.feed("echo a\x07b\necho c")).toEqual({ kind: "submit", line: "echo ab" });
  });

  it("the redraw sequences put the cursor where the line says", () => {
    const e = new LineEditor();
    e.feed("abc");
    expect(e.flush()).toBe("abc");
    e.feed("\x1b[D");
    expect(e.flush()).toBe("\x1b[1D");
    e.feed("\x7f");
    // Move back one, rewrite "c" plus a blank over the removed char, then return two cells.
    expect(e.flush()).toBe("\x1b[1Dc \x1b[2D");
    expect(toTerminalText("a\nb\r\nc")).toBe("a\r\nb\r\nc");
  });
});
