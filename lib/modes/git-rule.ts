/**
 * git under the Plan-mode guard. Which forms of a subcommand write is the subcommand's own
 * answer (`writes(args)` in lib/shell/git/commands/<name>.ts, or lib/shell/git/commands/unlisted.ts
 * for the ones the shell does not run); this rule adds what only a guard needs: global options
 * that run programs (`-c core.pager=…`, `--exec-path`), options of a reading form that run one
 * (`--ext-diff`), and arguments computed at run time.
 */
import { formWrites, type GitForm, gitForm } from "../shell/git/commands";
import { flag, type Arg, type Cmd, type CommandFinding } from "./command-types";

const GIT_DANGEROUS_CONFIG =
  /(^alias\.|pager|editor|program|command|cmd|hook|textconv|external|^filter\.|driver|helper|askpass|fsmonitor|ssh|proxy|exec|^include|^sequence\.|^gpg\.|^credential|^uploadpack|^receive\.|^url\.|^remote\.|^core\.worktree|^core\.gitproxy|^diff\..*\.|^merge\..*\.)/i;

export function gitRule(cmd: Cmd): CommandFinding | undefined {
  const args = cmd.args;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a.dynamic) return flag(cmd, "git with an argument computed at run time");
    const t = a.text;
    if (!t.startsWith("-")) break;
    if (t === "-C" || t === "--git-dir" || t === "--work-tree" || t === "--namespace") {
      if (args[i + 1]?.dynamic) return flag(cmd, "git with an argument computed at run time");
      i++;
      continue;
    }
    if (/^--(git-dir|work-tree|namespace)=/.test(t)) continue;
    if (t === "-c" || t.startsWith("-c")) {
      const kv = t === "-c" ? args[++i] : { text: t.slice(2), dynamic: false };
      if (!kv || kv.dynamic) return flag(cmd, "git -c with a value computed at run time");
      const key = kv.text.split("=")[0]!;
      if (GIT_DANGEROUS_CONFIG.test(key)) return flag(cmd, `git -c ${key} can run commands`);
      continue;
    }
    if (/^--(no-pager|paginate|bare|no-replace-objects|literal-pathspecs|glob-pathspecs|noglob-pathspecs|icase-pathspecs|no-optional-locks|version|help|html-path|man-path|info-path|exec-path|no-advice|no-lazy-fetch)$/.test(t) || /^-[Pph]$/.test(t)) continue;
    if (t.startsWith("--config-env") || t.startsWith("--exec-path=")) return flag(cmd, `git ${t.split("=")[0]} can run commands`);
    return flag(cmd, `git ${t} is not a known option`);
  }
  const sub = args[i]?.text;
  if (sub === undefined) return undefined;
  const rest = args.slice(i + 1);
  const form = gitForm(sub);
  if (!form) return flag(cmd, `git ${sub} changes the repository`);
  if (writesWithAnyValue(form, rest)) return flag(cmd, form.effect);
  const texts = rest.map((a) => a.text);
  if (texts.some((t) => /^--(ext-diff|open-files-in-pager)(=|$)/.test(t) || t === "-O" || (/^-O./.test(t) && sub === "grep"))) {
    return flag(cmd, `git ${sub} with this option runs a program`);
  }
  if (texts.some((t) => /^--(textconv|upload-pack|exec)(=|$)/.test(t) && t.includes("="))) return flag(cmd, `git ${sub} with this option runs a program`);
  return undefined;
}

/**
 * Whether the form writes, asked with each argument computed at run time taken both as a
 * plain word and as its static text (`"-$X"` as `-`): writes if either does.
 */
function writesWithAnyValue(form: GitForm, rest: Arg[]): boolean {
  const texts = rest.map((a) => a.text);
  if (formWrites(form, texts)) return true;
  return rest.some((a) => a.dynamic) && formWrites(form, rest.map((a) => (a.dynamic ? "\0computed" : a.text)));
}
