/** Argument shapes several commands' `writes(args)` share. */

/** `--output=<file>` (diff, log, show…): the output goes to a file instead of stdout. */
export function writesOutputFile(args: readonly string[]): boolean {
  return args.some((a) => /^--output(=|$)/.test(a));
}

/**
 * `git <cmd> --help` is `git help <cmd>` (git.c rewrites it before the command runs), and a lone
 * `-h` prints the usage and exits: neither runs the command, so neither writes.
 */
export function isHelpForm(args: readonly string[]): boolean {
  return args[0] === "--help" || (args.length === 1 && args[0] === "-h");
}

/** Arguments that are not options. */
export function positionals(args: readonly string[]): string[] {
  return args.filter((a) => !a.startsWith("-"));
}
