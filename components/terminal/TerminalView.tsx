"use client";
import { useEffect, useRef } from "react";
import { Terminal } from "@xterm/xterm";
import { FitAddon } from "@xterm/addon-fit";
import { Unicode11Addon } from "@xterm/addon-unicode11";
import "@xterm/xterm/css/xterm.css";
import { LineEditor, toTerminalText, type LineAction } from "@/lib/terminal/line-editor";
import { completions, toShellPath, type CommandHistory, type Shell, type ShellResult } from "@/lib/shell";
import { terminalTheme } from "./theme";
import { workbenchTheme } from "@/lib/workbench/theme";

export interface TerminalHost {
  shell: Shell;
  history: CommandHistory;
  /** Called after every command: the history changed and files may have. */
  afterCommand(): void;
  branch(): Promise<string | undefined>;
  openFile(path: string, line?: number): void;
  fileExists(path: string): Promise<boolean>;
}

const PATH_IN_OUTPUT = /(?:^|[\s'"(:])((?:\.{0,2}\/)?[\w.@-]+(?:\/[\w.@-]+)*\.[A-Za-z0-9]+)(?::(\d+))?/g;

/**
 * One terminal: xterm + fit, a readline-style prompt over the shared workspace shell.
 * The shell runs a whole command and returns its output (just-bash does not stream), so output
 * appears when the command ends, except a lone python3 command's, shown as it is produced
 * (onOutput); Ctrl-C aborts the running command. Keys typed while a command
 * runs, and the later lines of a multi-line paste, wait in the line editor's queue and run next.
 */
export default function TerminalView(props: {
  host: TerminalHost;
  active: boolean;
  label: string;
  /** The directory to start in, relative to the workspace (a reload puts each terminal back where it was). */
  startCwd?: string;
  /** The directory changed (relative to the workspace; not called for one outside it). */
  onCwd?: (cwd: string) => void;
}) {
  const hostRef = useRef<HTMLDivElement>(null);
  const fitRef = useRef<FitAddon | null>(null);
  const termRef = useRef<Terminal | null>(null);
  const latest = useRef(props);
  latest.current = props;

  useEffect(() => {
    // The shell is read through `latest` at each use: a tab switching to read-only swaps it.
    const { history } = latest.current.host;
    const shell = () => latest.current.host.shell;
    const term = new Terminal({
      cursorBlink: true,
      fontFamily: 'ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace',
      fontSize: 13,
      convertEol: false,
      scrollback: 5000,
      // The Unicode 11 width tables (wide CJK and emoji) are a "proposed" API in xterm 6.
      allowProposedApi: true,
      theme: terminalTheme(),
    });
    const offTheme = workbenchTheme().subscribe(() => {
      term.options.theme = terminalTheme();
    });
    const fit = new FitAddon();
    term.loadAddon(fit);
    term.loadAddon(new Unicode11Addon());
    term.unicode.activeVersion = "11";
    term.open(hostRef.current!);
    fitRef.current = fit;
    termRef.current = term;
    fit.fit();

    const editor = new LineEditor(history, { columns: term.cols });
    const resized = term.onResize(({ cols }) => editor.setColumns(cols));
    let cwd = toShellPath(shell().mountPoint, latest.current.startCwd ?? "");
    let env: Record<string, string> | undefined;
    let lastExitCode = 0;
    let running: AbortController | null = null;
    let interruptEchoed = false;
    /** A command runs or the prompt is being drawn: input waits in the editor's queue. */
    let busy = true;
    let disposed = false;

    // The prompt shows the branch. Reading it (HEAD through IndexedDB) can wait behind the
    // refresh a command starts, so the prompt is drawn at once from the last value read; only a
    // command that may run git waits for a fresh one. Each prompt also re-reads it in the
    // background (the branch picker, the agent or another tab may switch it) and redraws an
    // untouched prompt when it changed.
    let branch: string | undefined;
    let branchRead = false;
    const readBranch = () => latest.current.host.branch().catch(() => undefined);
    const promptText = () => {
      const mount = shell().mountPoint;
      const rel = cwd === mount ? "~" : cwd.startsWith(mount + "/") ? "~" + cwd.slice(mount.length) : cwd;
      return `${branch ? `\x1b[33m(${branch})\x1b[0m ` : ""}\x1b[36m${rel}\x1b[0m $ `;
    };
    const prompt = async (keepLine = false, headMayHaveMoved = false) => {
      if (!branchRead || headMayHaveMoved) {
        branch = await readBranch();
        branchRead = true;
      }
      if (disposed) return;
      editor.prompt(promptText(), keepLine);
      term.write(editor.flush());
      const shown = branch;
      void readBranch().then((now) => {
        // Nothing changed, or a later prompt has read it since.
        if (disposed || now === shown || branch !== shown) return;
        branch = now;
        // Redraw only a one-row prompt nobody has typed at yet, with no command running.
        if (busy || !editor.isEmpty || promptText().replace(/\x1b\[[0-9;]*m/g, "").length >= term.cols) return;
        term.write("\x1b[2K\r");
        editor.prompt(promptText());
        term.write(editor.flush());
      });
    };

    const run = async (line: string) => {
      editor.reset();
      if (line.trim()) {
        history.add(line);
        running = new AbortController();
        let result: ShellResult;
        let liveTail = "";
        const onOutput = (stream: "stdout" | "stderr", text: string) => {
          if (disposed || !text) return;
          term.write(stream === "stderr" ? `\x1b[31m${toTerminalText(text)}\x1b[0m` : toTerminalText(text));
          liveTail = text;
        };
        try {
          result = await shell().exec(line, { cwd, env, signal: running.signal, onOutput, lastExitCode });
        } catch (err) {
          result = { stdout: "", stderr: `${(err as Error).message ?? err}\n`, exitCode: 1, cwd, env: env ?? {}, durationMs: 0 };
        } finally {
          running = null;
        }
        if (disposed) return;
        if (result.cwd !== cwd) {
          const rel = shell().toWorkspacePath(result.cwd);
          if (rel !== null) latest.current.onCwd?.(rel);
        }
        cwd = result.cwd;
        env = result.env;
        lastExitCode = result.exitCode;
        if (result.stdout) term.write(toTerminalText(result.stdout));
        // The key press already echoed ^C; the result's own ^C line (for the agent's tools) is not shown twice.
        const stderr = interruptEchoed ? result.stderr.replace(/\^C\n$/, "") : result.stderr;
        interruptEchoed = false;
        if (stderr) term.write(`\x1b[31m${toTerminalText(stderr)}\x1b[0m`);
        const out = liveTail + result.stdout + stderr;
        if (out && !out.endsWith("\n")) term.write("\x1b[7m%\x1b[0m\r\n");
        latest.current.host.afterCommand();
      }
      await prompt(false, /\bgit\b/.test(line));
    };

    /** Carry out what the editor asked for; then go on with queued input, in order. */
    const handle = async (first: LineAction) => {
      busy = true;
      let action = first;
      try {
        for (;;) {
          term.write(editor.flush());
          await act(action);
          if (disposed || !editor.hasQueued) break;
          action = editor.resume();
        }
        term.write(editor.flush());
      } finally {
        busy = false;
      }
    };

    const act = async (action: LineAction) => {
      switch (action.kind) {
        case "submit":
          await run(action.line);
          break;
        case "interrupt":
          editor.reset();
          await prompt();
          break;
        case "clear-screen":
          term.clear();
          term.write("\x1b[2K\r");
          await prompt(true);
          break;
        case "complete": {
          const c = await completions(shell(), action.line, action.cursor, cwd);
          if (c.candidates.length === 1) {
            const insert = c.candidates[0] + (c.candidates[0].endsWith("/") ? "" : " ");
            editor.setLine(action.line.slice(0, c.start) + insert + action.line.slice(c.end), c.start + insert.length);
          } else if (c.candidates.length > 1) {
            const current = action.line.slice(c.start, c.end);
            if (c.common.length > current.length) {
              editor.setLine(action.line.slice(0, c.start) + c.common + action.line.slice(c.end), c.start + c.common.length);
            } else {
              editor.leaveLine();
              term.write(editor.flush() + c.candidates.join("  ") + "\r\n");
              await prompt(true);
            }
          }
          term.write(editor.flush());
          break;
        }
      }
    };

    term.attachCustomKeyEventHandler((e) => {
      // Ctrl+C copies when text is selected; Ctrl+Shift+C always copies; Ctrl+V pastes (browser default).
      if (e.type === "keydown" && (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "c" && (e.shiftKey || term.hasSelection())) {
        void navigator.clipboard?.writeText(term.getSelection());
        return false;
      }
      if (e.type === "keydown" && (e.ctrlKey || e.metaKey) && (e.key === "`" || e.key.toLowerCase() === "p" || (e.shiftKey && e.key.toLowerCase() === "f"))) return false;
      return true;
    });

    const dataSub = term.onData((data) => {
      if (running && data === "\x03") {
        running.abort();
        interruptEchoed = true;
        editor.discardQueued();
        // The prompt that follows starts on a fresh row (the editor counts cells from there).
        term.write("^C\r\n");
        return;
      }
      if (busy) {
        editor.enqueue(data);
        return;
      }
      const action = editor.feed(data);
      term.write(editor.flush());
      if (action.kind !== "none") void handle(action);
    });

    // A path in the output opens in the editor on click.
    const links = term.registerLinkProvider({
      provideLinks(y, callback) {
        const text = term.buffer.active.getLine(y - 1)?.translateToString(true) ?? "";
        const found: { start: number; text: string; path: string; line?: number }[] = [];
        for (const m of text.matchAll(PATH_IN_OUTPUT)) {
          const start = (m.index ?? 0) + m[0].indexOf(m[1]);
          const resolved = shell().toWorkspacePath(m[1], cwd);
          if (resolved) found.push({ start, text: m[1] + (m[2] ? `:${m[2]}` : ""), path: resolved, line: m[2] ? Number(m[2]) : undefined });
        }
        Promise.all(found.map((f) => latest.current.host.fileExists(f.path))).then((exists) =>
          callback(
            found
              .filter((_, i) => exists[i])
              .map((f) => ({
                range: { start: { x: f.start + 1, y }, end: { x: f.start + f.text.length, y } },
                text: f.text,
                activate: () => latest.current.host.openFile(f.path, f.line),
              })),
          ),
        );
      },
    });

    term.write(`\x1b[2mTabula shell — just-bash over this workspace, with git. Output appears when a command ends; Ctrl-C stops it.\x1b[0m\r\n`);
    void prompt().then(() => handle({ kind: "none" }));
    const resize = new ResizeObserver(() => {
      try {
        fit.fit();
      } catch {
        // hidden (display: none): nothing to fit
      }
    });
    resize.observe(hostRef.current!);
    return () => {
      disposed = true;
      offTheme();
      running?.abort();
      resize.disconnect();
      links.dispose();
      dataSub.dispose();
      resized.dispose();
      term.dispose();
    };
  }, []);

  const shownOnce = useRef(false);
  useEffect(() => {
    if (!props.active) return;
    fitRef.current?.fit();
    const first = !shownOnce.current;
    shownOnce.current = true;
    // A terminal takes the focus when it opens — unless a dialog (the command palette, a picker)
    // was opened while its code was still loading: the keys typed there must stay there.
    const active = document.activeElement;
    if (first && active && !hostRef.current?.contains(active) && active.closest('[role="dialog"]')) return;
    termRef.current?.focus();
  }, [props.active]);

  return <div ref={hostRef} className="terminal-host" data-testid="terminal" aria-label={props.label} style={{ display: props.active ? "block" : "none" }} />;
}
