/**
 * The registry of git subcommands this shell runs: one module per command (see ./types.ts),
 * listed here once. The dispatcher (../index.ts) and the Plan-mode guard (lib/modes/git-rule.ts)
 * both look commands up here, so whether a form writes is decided by the command's own
 * `writes(args)`; subcommands without a file here are described in ./unlisted.ts.
 */
import * as add from "./add";
import * as apply from "./apply";
import * as blame from "./blame";
import * as branch from "./branch";
import * as catFile from "./cat-file";
import * as checkout from "./checkout";
import * as cherryPick from "./cherry-pick";
import * as clean from "./clean";
import * as clone from "./clone";
import * as commit from "./commit";
import * as config from "./config";
import * as diff from "./diff";
import * as fetch from "./fetch";
import * as grep from "./grep";
import * as init from "./init";
import * as log from "./log";
import * as lsFiles from "./ls-files";
import * as merge from "./merge";
import * as mv from "./mv";
import * as pull from "./pull";
import * as push from "./push";
import * as rebase from "./rebase";
import * as remote from "./remote";
import * as reset from "./reset";
import * as restore from "./restore";
import * as revert from "./revert";
import * as revParse from "./rev-parse";
import * as rm from "./rm";
import * as show from "./show";
import * as stash from "./stash";
import * as status from "./status";
import * as switchCmd from "./switch";
import * as tag from "./tag";
import { isHelpForm } from "./forms";
import type { GitCommand } from "./types";
import { type GitForm, UNLISTED_FORMS } from "./unlisted";

export type { GitCommand } from "./types";
export type { GitForm } from "./unlisted";

const COMMANDS: readonly GitCommand[] = [
  status, log, show, diff, add, rm, mv, restore, reset, commit, branch, switchCmd, checkout, stash, tag,
  revParse, lsFiles, blame, grep, init, config, catFile, remote, fetch, pull, push, clone, merge,
  cherryPick, revert, clean, rebase, apply,
];

const BY_NAME = new Map<string, GitCommand>(COMMANDS.map((c) => [c.name, c]));

/** The command `git <name>` runs here, or undefined when this shell has none by that name. */
export function gitCommand(name: string): GitCommand | undefined {
  return BY_NAME.get(name);
}

/** Subcommand names, sorted, for completion and help. */
export const GIT_SUBCOMMANDS: readonly string[] = COMMANDS.map((c) => c.name).sort();

/** Whether `git <form.name> <args>` writes: the form's own answer, except for help forms. */
export function formWrites(form: GitForm, args: readonly string[]): boolean {
  return !isHelpForm(args) && form.writes(args);
}

const FORMS = new Map<string, GitForm>([...UNLISTED_FORMS.map((f) => [f.name, f] as const), ...BY_NAME]);

/** How `git <name>` is judged before it runs: its command, or its unlisted form; undefined when git has no such subcommand. */
export function gitForm(name: string): GitForm | undefined {
  return FORMS.get(name);
}
