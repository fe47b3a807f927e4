/**
 * The shapes the Plan-mode command guard works on: a simple command with its arguments (each
 * static or computed at run time), a finding (why a command would write), and what a rule may
 * ask of the guard (re-checking code held in strings).
 *
 * Framework-free; no imports.
 */

export type CommandFinding = { command: string; reason: string };

/** One argument: its static text, and whether part of it is only known at run time. */
export type Arg = { text: string; dynamic: boolean };

/** A simple command with a static name. */
export type Cmd = { name: string; args: Arg[]; text: string };

export interface RuleContext {
  depth: number;
  /** Check shell source (a `bash -c` string, an `eval`'d text) with both parses. */
  checkSource(source: string, depth: number): CommandFinding | undefined;
  /** True when the command receives more arguments than shown (xargs). */
  extraArgs?: boolean;
  /** Source text of the statement being checked, when known (for display). */
  statement?: string;
}

export type Rule = (cmd: Cmd, cx: RuleContext) => CommandFinding | undefined;

/** A finding for `cmd`. */
export const flag = (cmd: Cmd, reason: string): CommandFinding => ({ command: cmd.text, reason });
