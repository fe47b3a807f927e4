/**
 * Per-command rules of the Plan-mode command guard (see command-guard.ts).
 *
 * The guard is an allow list: a command is allowed when it is known to only read (READ_ONLY),
 * or when its own rule (RULES) finds nothing that writes. Every other command is refused.
 * Wrappers (`env`, `xargs`, `timeout`, `find -exec`, …) are unwrapped and the wrapped command
 * is checked the same way; code in strings (`bash -c`, `eval`, `trap`) goes back to the
 * parser through `cx.checkSource`.
 *
 * The tables are in command-tables.ts; sed, awk and git have their own files.
 */
import { flag, type Arg, type CommandFinding, type Cmd, type Rule, type RuleContext } from "./command-types";
import { EVALUATING_BUILTINS, FIND_VALUED, HARMLESS_OUTPUT_TARGETS, FIND_WRITES, IN_TAB_INTERPRETERS, INTERPRETERS, PACKAGE_MANAGER_READS, PACKAGE_MANAGER_WRITING_FORMS, PACKAGE_MANAGERS, READ_ONLY_COMMANDS, SHELLS, WRITERS, hasCommandText, isDangerousVariable } from "./command-tables";
import { sedRule } from "./sed-script";
import { awkRule } from "./awk-program";
import { gitRule } from "./git-rule";

export type { Arg, Cmd, CommandFinding, RuleContext } from "./command-types";
export { HARMLESS_OUTPUT_TARGETS, READ_ONLY_COMMANDS, hasCommandText, isDangerousVariable } from "./command-tables";
export { sedScriptWrites } from "./sed-script";
export { awkProgramWrites } from "./awk-program";

function isOption(a: Arg): boolean {
  return !a.dynamic && a.text.startsWith("-") && a.text !== "-";
}

function shortCluster(a: Arg): string | undefined {
  return !a.dynamic && /^-[A-Za-z0-9]+$/.test(a.text) ? a.text.slice(1) : undefined;
}

/** Check a command given as strings (find -exec, xargs, wrappers). */
function checkArgv(argv: Arg[], text: string, cx: RuleContext, extraArgs = false): CommandFinding | undefined {
  const [head, ...rest] = argv;
  if (!head) return undefined;
  if (head.dynamic) return { command: text, reason: "the command name is computed at run time" };
  return classify({ name: head.text, args: rest, text }, { ...cx, extraArgs: extraArgs || cx.extraArgs });
}

function argvText(argv: Arg[]): string {
  return argv.map((a) => a.text).join(" ");
}

/** The name a command is looked up by ("/bin/rm" → "rm"). */
function baseName(name: string): string {
  const i = name.lastIndexOf("/");
  return i >= 0 && i < name.length - 1 ? name.slice(i + 1) : name;
}

/** Classify one simple command with a static name. */
export function classify(cmd: Cmd, cx: RuleContext): CommandFinding | undefined {
  const name = baseName(cmd.name);
  if (name === "") return flag(cmd, "the command name is empty");
  const rule = RULES[name];
  if (rule) return rule(cmd, cx);
  if (READ_ONLY_COMMANDS.has(name)) {
    if (EVALUATING_BUILTINS.has(name)) return checkEvaluatingBuiltin(name, cmd, cx);
    return undefined;
  }
  if (EVALUATING_BUILTINS.has(name)) return checkEvaluatingBuiltin(name, cmd, cx);
  const w = WRITERS[name];
  if (w) return flag(cmd, w);
  if (PACKAGE_MANAGERS.has(name)) return packageManager(name, cmd);
  if (INTERPRETERS.has(name)) return interpreter(name, cmd);
  if (SHELLS.has(name)) return shell(name, cmd, cx);
  return flag(cmd, `${name} is not a known read-only command`);
}

function checkEvaluatingBuiltin(name: string, cmd: Cmd, _cx: RuleContext): CommandFinding | undefined {
  for (const a of cmd.args) {
    if (!a.dynamic && hasCommandText(a.text)) return flag(cmd, `${name} would evaluate the command text in its arguments`);
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\[.*\])?\+?=/.exec(a.text);
    if (m && ["declare", "typeset", "local", "export", "readonly"].includes(name) && isDangerousVariable(m[1]!)) {
      return flag(cmd, `setting ${m[1]} can make later commands run other programs`);
    }
  }
  if (name === "mapfile" || name === "readarray") {
    if (cmd.args.some((a) => a.text === "-C" || /^-[A-Za-z]*C/.test(a.text))) return flag(cmd, `${name} -C runs a callback command`);
  }
  return undefined;
}

// ---- rules ----------------------------------------------------------------------------------

const RULES: Record<string, Rule> = {
  // code in strings
  eval(cmd, cx) {
    if (cmd.args.some((a) => a.dynamic)) return flag(cmd, "eval runs text computed at run time");
    return cx.checkSource(argvText(cmd.args), cx.depth + 1);
  },
  source: (cmd) => flag(cmd, "source runs a script file that cannot be checked"),
  ".": (cmd) => flag(cmd, ". runs a script file that cannot be checked"),
  trap(cmd, cx) {
    const args = cmd.args.filter((a) => a.text !== "--");
    if (args.length === 0 || args.every((a) => ["-l", "-p"].includes(a.text))) return undefined;
    const action = args[0]!;
    if (action.text === "-l" || action.text === "-p") return undefined;
    if (action.dynamic) return flag(cmd, "trap runs text computed at run time");
    if (action.text === "-" || action.text === "") return undefined;
    return cx.checkSource(action.text, cx.depth + 1);
  },
  alias(cmd) {
    if (cmd.args.some((a) => a.dynamic || a.text.includes("="))) return flag(cmd, "alias defines a command alias");
    return undefined;
  },
  hash(cmd) {
    if (cmd.args.some((a) => a.dynamic || /^-[A-Za-z]*p/.test(a.text))) return flag(cmd, "hash -p maps a command name to another program");
    return undefined;
  },
  history(cmd) {
    if (cmd.args.some((a) => a.dynamic || /^-[A-Za-z]*[wanrs]/.test(a.text))) return flag(cmd, "history can write or load history files");
    return undefined;
  },
  enable: (cmd) => flag(cmd, "enable loads or changes builtins"),
  complete: (cmd) => flag(cmd, "complete can register commands to run"),
  compgen: (cmd) => flag(cmd, "compgen can run commands"),
  fc: (cmd) => flag(cmd, "fc runs commands from the history"),

  // wrappers
  command(cmd, cx) {
    let i = 0;
    let lookup = false;
    for (; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (a.dynamic) return flag(cmd, "command runs a name computed at run time");
      if (a.text === "--") {
        i++;
        break;
      }
      const c = shortCluster(a);
      if (c === undefined) break;
      if (/[vV]/.test(c)) lookup = true;
    }
    if (lookup) return undefined;
    return checkArgv(cmd.args.slice(i), argvText(cmd.args.slice(i)), cx);
  },
  builtin(cmd, cx) {
    return checkArgv(cmd.args, argvText(cmd.args), cx);
  },
  exec(cmd, cx) {
    let i = 0;
    for (; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (a.text === "-a") {
        i++;
        continue;
      }
      if (a.text === "--") {
        i++;
        break;
      }
      if (!/^-[cl]+$/.test(a.text)) break;
    }
    return checkArgv(cmd.args.slice(i), argvText(cmd.args.slice(i)), cx);
  },
  time(cmd, cx) {
    let i = 0;
    while (i < cmd.args.length && /^-[pv]$/.test(cmd.args[i]!.text)) i++;
    return checkArgv(cmd.args.slice(i), argvText(cmd.args.slice(i)), cx);
  },
  nohup(cmd, cx) {
    const rest = cmd.args[0]?.text === "--" ? cmd.args.slice(1) : cmd.args;
    return checkArgv(rest, argvText(rest), cx);
  },
  nice(cmd, cx) {
    let i = 0;
    for (; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (a.dynamic) return flag(cmd, "nice runs arguments computed at run time");
      if (a.text === "-n" || a.text === "--adjustment") i++;
      else if (a.text === "--") {
        i++;
        break;
      } else if (!/^(-n?-?\d+|--adjustment=.*)$/.test(a.text)) break;
    }
    return checkArgv(cmd.args.slice(i), argvText(cmd.args.slice(i)), cx);
  },
  stdbuf(cmd, cx) {
    let i = 0;
    for (; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (/^-[ioe]$/.test(a.text)) i++;
      else if (!/^(-[ioe].+|--(input|output|error)=.*)$/.test(a.text)) break;
    }
    return checkArgv(cmd.args.slice(i), argvText(cmd.args.slice(i)), cx);
  },
  timeout(cmd, cx) {
    let i = 0;
    for (; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (a.dynamic) return flag(cmd, "timeout runs arguments computed at run time");
      if (a.text === "-s" || a.text === "-k" || a.text === "--signal" || a.text === "--kill-after") i++;
      else if (a.text === "--") {
        i++;
        break;
      } else if (!a.text.startsWith("-") || a.text === "-") break;
    }
    // the duration
    i++;
    return checkArgv(cmd.args.slice(i), argvText(cmd.args.slice(i)), cx);
  },
  env(cmd, cx) {
    let i = 0;
    for (; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (a.dynamic) return flag(cmd, "env runs arguments computed at run time");
      if (a.text === "-S" || a.text.startsWith("--split-string") || /^-[A-Za-z0-9]*S/.test(a.text)) {
        return flag(cmd, "env -S runs a command line that cannot be checked");
      }
      if (a.text === "-u" || a.text === "--unset" || a.text === "-C" || a.text === "--chdir") i++;
      else if (a.text === "--") {
        i++;
        break;
      } else if (a.text === "-" || /^-[A-Za-z0-9]+$/.test(a.text) || /^--[a-z-]+(=.*)?$/.test(a.text)) continue;
      else break;
    }
    for (; i < cmd.args.length; i++) {
      const m = /^([A-Za-z_][A-Za-z0-9_]*)=/.exec(cmd.args[i]!.text);
      if (!m) break;
      if (isDangerousVariable(m[1]!)) return flag(cmd, `setting ${m[1]} can make later commands run other programs`);
    }
    return checkArgv(cmd.args.slice(i), argvText(cmd.args.slice(i)), cx);
  },
  xargs(cmd, cx) {
    const valued = new Set(["-I", "-L", "-n", "-P", "-s", "-d", "-E", "-a", "--max-args", "--max-procs", "--max-chars", "--delimiter", "--eof", "--arg-file", "--max-lines", "--replace", "--process-slot-var"]);
    let i = 0;
    for (; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (a.dynamic) return flag(cmd, "xargs runs arguments computed at run time");
      if (a.text === "--") {
        i++;
        break;
      }
      if (!a.text.startsWith("-") || a.text === "-") break;
      if (valued.has(a.text)) i++;
    }
    const inner = cmd.args.slice(i);
    if (inner.length === 0) return undefined; // echo
    return checkArgv(inner, cmd.text, cx, true);
  },
  find: findRule,

  // shells and interpreters
  ...Object.fromEntries([...SHELLS].map((s) => [s, (cmd: Cmd, cx: RuleContext) => shell(s, cmd, cx)])),

  // editing flags on reading tools
  sed: sedRule,
  awk: awkRule,
  gawk: awkRule,
  mawk: awkRule,
  nawk: awkRule,
  sort(cmd) {
    for (const a of cmd.args) {
      if (a.text === "--") break;
      if (/^--(output|compress-program)(=|$)/.test(a.text) || (a.text.startsWith("--o") && "--output".startsWith(a.text.split("=")[0]!) && a.text.length > 3)) {
        return flag(cmd, a.text.startsWith("--c") ? "sort --compress-program runs a program" : "sort -o writes its output to a file");
      }
      const c = shortCluster(a);
      if (c === undefined) continue;
      for (const ch of c) {
        if (ch === "o") return flag(cmd, "sort -o writes its output to a file");
        if ("ktST".includes(ch)) break;
      }
    }
    return undefined;
  },
  uniq(cmd) {
    const valued = new Set(["-f", "-s", "-w", "--skip-fields", "--skip-chars", "--check-chars", "--group", "--all-repeated"]);
    const positional: Arg[] = [];
    let options = true;
    for (let i = 0; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (options && a.text === "--") {
        options = false;
        continue;
      }
      if (options && isOption(a)) {
        if (valued.has(a.text) && !["--group", "--all-repeated"].includes(a.text)) i++;
        continue;
      }
      positional.push(a);
    }
    if (positional.length >= 2) return flag(cmd, `uniq writes its output to ${positional[1]!.text}`);
    return undefined;
  },
  tee(cmd) {
    let options = true;
    for (const a of cmd.args) {
      if (options && a.text === "--") {
        options = false;
        continue;
      }
      if (options && isOption(a)) continue;
      if (a.dynamic || !HARMLESS_OUTPUT_TARGETS.has(a.text)) return flag(cmd, `tee writes to ${a.text || "a file"}`);
    }
    return undefined;
  },
  yq(cmd) {
    for (const a of cmd.args) {
      const long = a.text.split("=")[0]!;
      if (long.length >= 4 && long.startsWith("--") && ["--inplace", "--in-place", "--split-exp"].some((o) => o.startsWith(long))) {
        return flag(cmd, long.startsWith("--s") ? "yq -s writes files" : "yq -i edits files in place");
      }
      const c = shortCluster(a);
      // (-s is --slurp in the shell's yq; mikefarah's --split-exp is caught above)
      if (c !== undefined && /^[a-zA-Z]+$/.test(c) && c.includes("i")) return flag(cmd, "yq -i edits files in place");
    }
    return undefined;
  },
  xan(cmd) {
    const sub = cmd.args.find((a) => !isOption(a));
    if (sub && (sub.dynamic || ["split", "partition"].includes(sub.text))) return flag(cmd, `xan ${sub.text} writes files`);
    if (cmd.args.some((a) => /^(-o|--output)(=|$)/.test(a.text) || /^-o./.test(a.text))) return flag(cmd, "xan -o writes its output to a file");
    return undefined;
  },
  tree(cmd) {
    if (cmd.args.some((a) => a.text === "-o" || /^-[A-Za-z]*o/.test(a.text) || a.text.startsWith("--output"))) return flag(cmd, "tree -o writes its output to a file");
    return undefined;
  },
  file(cmd) {
    if (cmd.args.some((a) => a.text === "--compile" || /^-[A-Za-z]*C/.test(a.text))) return flag(cmd, "file -C writes a magic file");
    return undefined;
  },
  rg(cmd) {
    if (cmd.args.some((a) => /^--pre(=|$)/.test(a.text))) return flag(cmd, "rg --pre runs a program");
    return undefined;
  },
  dd(cmd) {
    const of = cmd.args.find((a) => a.dynamic || a.text.startsWith("of="));
    if (of) return flag(cmd, `dd writes to ${of.text.slice(3) || "a file"}`);
    return undefined;
  },
  patch(cmd) {
    if (cmd.args.some((a) => a.text === "--dry-run") && !cmd.args.some((a) => /^(-o|--output|-b|--backup|-B|--prefix)/.test(a.text))) return undefined;
    return flag(cmd, "patch changes files");
  },
  mktemp(cmd) {
    if (cmd.args.some((a) => a.text === "-u" || a.text === "--dry-run" || /^-[A-Za-z]*u/.test(a.text))) return undefined;
    return flag(cmd, "mktemp creates files");
  },
  tar(cmd) {
    const safeLong = /^--(list|file(=.*)?|verbose|gzip|gunzip|ungzip|bzip2|xz|zstd|auto-compress|wildcards|no-wildcards|exclude=.*|strip(-components)?=.*|to-stdout|help|version|totals|numeric-owner|utc|full-time|anchored|no-anchored|ignore-case|null|verbatim-files-from)$/;
    let mode: string | undefined;
    let first = true;
    for (const a of cmd.args) {
      if (a.text.startsWith("--")) {
        if (a.text === "--list") mode = mode ?? "t";
        else if (/^--(extract|get|create|append|update|catenate|concatenate|delete)$/.test(a.text)) mode = "w";
        else if (!safeLong.test(a.text)) return flag(cmd, `tar ${a.text} can write files or run programs`);
        first = false;
        continue;
      }
      // Old style: the first argument's letters are options ("tar tf a.tar").
      const letters = a.text.startsWith("-") ? a.text.slice(1) : first && /^[a-zA-Z]+$/.test(a.text) ? a.text : undefined;
      first = false;
      if (letters === undefined) continue;
      for (const ch of letters) {
        if ("xcruAd".includes(ch)) mode = "w";
        else if (ch === "t") mode = mode ?? "t";
        else if ("IFT".includes(ch)) return flag(cmd, `tar -${ch} can run programs or read file lists`);
        else if (ch === "f" || ch === "C" || ch === "X") break;
      }
    }
    if (mode === "t") return undefined;
    if (mode === "w") return flag(cmd, "tar writes or extracts files");
    return flag(cmd, "tar without -t may write files");
  },
  gzip: compressor("gzip"),
  gunzip: compressor("gunzip"),
  unzip(cmd) {
    if (cmd.args.some((a) => /^-[A-Za-z]*[lvtpZz]/.test(a.text))) return undefined;
    return flag(cmd, "unzip extracts files");
  },
  sqlite3(cmd) {
    const readonly = cmd.args.some((a) => a.text === "-readonly" || a.text === "--readonly");
    if (cmd.args.some((a) => a.text === "-cmd" || a.text === "--cmd" || a.text === "-init" || a.text === "--init")) return flag(cmd, "sqlite3 -cmd runs statements that can change files");
    const positional = cmd.args.filter((a) => !a.text.startsWith("-"));
    const sql = positional.slice(1);
    const safeSql = (s: Arg) => !s.dynamic && /^\s*(select|explain|with|pragma\s+(table_info|index_list|index_info|database_list|table_list)\b)/i.test(s.text) && !/\b(attach|into|insert|update|delete|drop|create|alter|replace|vacuum|load_extension|writefile|edit|fts3_tokenizer)\b|^\s*\.|;\s*\S/im.test(s.text);
    if (readonly && sql.length > 0 && sql.every(safeSql)) return undefined;
    return flag(cmd, "sqlite3 can change database files");
  },
  curl(cmd) {
    const safeLetters = /^[sSLIivfkgNG#q]+$/;
    const valued = new Set(["-H", "--header", "-A", "--user-agent", "-e", "--referer", "-m", "--max-time", "--connect-timeout", "--retry", "-X", "--request", "-w", "--write-out", "-r", "--range", "--max-redirs", "-u", "--user"]);
    for (let i = 0; i < cmd.args.length; i++) {
      const a = cmd.args[i]!;
      if (!a.text.startsWith("-") || a.dynamic) continue;
      const [opt, inlineValue] = a.text.startsWith("--") ? [a.text.split("=")[0]!, a.text.includes("=") ? a.text.slice(a.text.indexOf("=") + 1) : undefined] : [a.text, undefined];
      if (valued.has(opt)) {
        const v = inlineValue ?? cmd.args[i + 1]?.text ?? "";
        if ((opt === "-X" || opt === "--request") && !/^(GET|HEAD|OPTIONS)$/i.test(v)) return flag(cmd, `curl -X ${v} can change remote data`);
        if ((opt === "-w" || opt === "--write-out") && v.includes("%output")) return flag(cmd, "curl -w %output writes a file");
        if (inlineValue === undefined) i++;
        continue;
      }
      if (/^--(silent|show-error|location|head|include|verbose|fail|fail-with-body|insecure|compressed|http1\.1|http2|globoff|no-buffer|get|no-progress-meter|progress-bar)$/.test(opt)) continue;
      const c = shortCluster(a);
      if (c !== undefined && safeLetters.test(c)) continue;
      return flag(cmd, `curl ${opt} can write files or send data`);
    }
    return undefined;
  },

  // version control
  git: gitRule,
};

function compressor(name: string): Rule {
  return (cmd) => {
    for (const a of cmd.args) {
      if (/^--(stdout|to-stdout|list|test)$/.test(a.text)) return undefined;
      const c = shortCluster(a);
      if (c !== undefined && /[clt]/.test(c)) return undefined;
    }
    return flag(cmd, name === "gzip" ? "gzip compresses or expands files in place" : "gunzip expands files in place");
  };
}

function packageManager(name: string, cmd: Cmd): CommandFinding | undefined {
  const args = cmd.args;
  if (args.some((a) => a.dynamic)) return flag(cmd, `${name} with an argument computed at run time`);
  const texts = args.map((a) => a.text);
  if (texts.length === 1 && /^(--version|-v|-V|--help|-h|help)$/.test(texts[0]!)) return undefined;
  // The subcommand must come first: an option before it may take a value and hide the real one.
  const sub = texts[0];
  const reads = PACKAGE_MANAGER_READS[name];
  if (sub !== undefined && reads?.has(sub)) {
    const rest = texts.slice(1);
    const positional = rest.filter((t) => !t.startsWith("-"));
    const end = rest.indexOf("--");
    if (end !== -1) return flag(cmd, `${name} ${sub} passes arguments on to a program`);
    if (rest.some((t) => /^--(fix|force|write|save|cache|globalconfig|userconfig|viewer|browser|location|registry)(=|$)/.test(t))) {
      return flag(cmd, `${name} ${sub} with this option can write files`);
    }
    if (positional.length > 0 && PACKAGE_MANAGER_WRITING_FORMS.test(positional[0]!) && ["config", "c", "pkg", "audit", "cache", "store", "workspaces", "env", "index", "pm", "licenses"].includes(sub)) {
      return flag(cmd, `${name} ${sub} ${positional[0]} changes files or settings`);
    }
    if (name === "bun" && sub === "pm" && !["ls", "bin", "hash-string"].includes(positional[0] ?? "")) return flag(cmd, "bun pm can change packages");
    if (name === "go" && sub === "env" && rest.some((t) => /^-[wu]$/.test(t))) return flag(cmd, "go env -w changes the Go settings");
    if (name === "yarn" && sub === "workspaces" && positional[0] !== "list" && positional[0] !== "info") return flag(cmd, "yarn workspaces runs commands in each workspace");
    if (name === "pnpm" && sub === "store" && positional[0] !== "path" && positional[0] !== "status") return flag(cmd, "pnpm store changes the package store");
    if (name === "poetry" && sub === "env" && positional[0] !== "info" && positional[0] !== "list") return flag(cmd, "poetry env changes environments");
    if ((name === "pip" || name === "pip3") && sub === "cache" && !["dir", "info", "list"].includes(positional[0] ?? "")) return flag(cmd, `${name} cache can delete files`);
    return undefined;
  }
  const shown = sub ?? "";
  if (shown && /^(i|in|ins|install|add|ci|update|upgrade|up|remove|rm|uninstall|un|unlink|link|sync|get|require)$/.test(shown)) {
    return flag(cmd, `${name} ${shown} installs or removes packages`);
  }
  if (shown && /^(version|publish|unpublish|deprecate|dist-tag|owner|pack|init|create|dedupe|prune|rebuild|exec|x|dlx|run|run-script|test|start|stop|restart|build)$/.test(shown)) {
    return flag(cmd, `${name} ${shown} changes packages or runs their scripts`);
  }
  return flag(cmd, `${name} installs packages or runs their scripts`);
}

function interpreter(name: string, cmd: Cmd): CommandFinding | undefined {
  const args = cmd.args.map((a) => a.text);
  if (args.length > 0 && args.every((a) => /^(--version|-V|-v|--help|-h)$/.test(a))) return undefined;
  if (IN_TAB_INTERPRETERS.has(name)) return inTabInterpreter(name, cmd, args);
  const inline = args.some((a) => /^(-[A-Za-z]*[ecpr]|--eval|--print|--command|eval|-E)$/.test(a)) || (name === "deno" && args[0] === "eval");
  if (name === "perl" && perlEditsInPlace(args)) return flag(cmd, "perl -i edits files in place");
  return flag(cmd, inline ? `${name} runs inline code that can change files` : `${name} runs a program that can change files`);
}

/** Package installs stay off in read-only modes, whatever the view would do with them. */
function inTabInterpreter(name: string, cmd: Cmd, args: string[]): CommandFinding | undefined {
  const m = args.indexOf("-m");
  const mod = m >= 0 ? args[m + 1] : /^-m(.+)$/.exec(args.find((a) => /^-m./.test(a)) ?? "")?.[1];
  if (mod === "pip" || mod === "ensurepip" || mod === "venv") return flag(cmd, `${name} -m ${mod} installs packages or creates environments`);
  return undefined;
}

/**
 * Whether perl's switches include -i. Switches cluster ("-pi", "-lne") and some take the rest
 * of their cluster as a value ("-Ilib", "-MList::Util", "-F:"), so an "i" there is no -i.
 */
function perlEditsInPlace(args: string[]): boolean {
  for (let k = 0; k < args.length; k++) {
    const a = args[k]!;
    if (a === "--" || !a.startsWith("-") || a === "-") return false;
    for (let j = 1; j < a.length; j++) {
      const ch = a[j]!;
      if (ch === "i") return true;
      // -l and -0 take digits only ("-lpi" is -l -p -i); -d takes an optional t and :Module.
      if (ch === "l" || ch === "0") {
        const digits = ch === "0" && a[j + 1] === "x" ? /^x[0-9a-fA-F]*/ : /^[0-7]*/;
        j += digits.exec(a.slice(j + 1))![0].length;
        continue;
      }
      if (ch === "d") {
        if (a[j + 1] === "t") j++;
        if (a[j + 1] === ":") break;
        continue;
      }
      // The rest of the cluster is this switch's value.
      if ("IMmDFxVC".includes(ch)) break;
      if (ch === "e" || ch === "E") {
        // The program text: the rest of the cluster, else the next argument.
        if (j === a.length - 1) k++;
        break;
      }
      // Unknown letters are read as more switches: a later "i" still counts.
    }
  }
  return false;
}

function shell(name: string, cmd: Cmd, cx: RuleContext): CommandFinding | undefined {
  let code = false;
  let i = 0;
  for (; i < cmd.args.length; i++) {
    const a = cmd.args[i]!;
    if (a.dynamic) return flag(cmd, `${name} runs text computed at run time`);
    if (a.text === "--" || a.text === "-") {
      i++;
      break;
    }
    if (/^(--version|--help)$/.test(a.text) && cmd.args.length === 1) return undefined;
    if (a.text === "-o" || a.text === "+o" || a.text === "-O" || a.text === "+O" || a.text === "--rcfile" || a.text === "--init-file") {
      if (a.text === "--rcfile" || a.text === "--init-file") return flag(cmd, `${name} ${a.text} runs a script file that cannot be checked`);
      i++;
      continue;
    }
    if (/^[-+][A-Za-z]+$/.test(a.text)) {
      if (a.text.startsWith("-") && a.text.includes("c")) code = true;
      if (a.text.startsWith("-") && a.text.includes("s")) return flag(cmd, `${name} -s runs commands from its input`);
      continue;
    }
    if (a.text.startsWith("--")) continue;
    break;
  }
  if (code) {
    const src = cmd.args[i];
    if (!src) return flag(cmd, `${name} -c without a command`);
    return cx.checkSource(src.text, cx.depth + 1);
  }
  if (i < cmd.args.length) return flag(cmd, `${name} runs a script file that cannot be checked`);
  return flag(cmd, `${name} runs commands from its input, which cannot be checked`);
}

// ---- find -----------------------------------------------------------------------------------

function findRule(cmd: Cmd, cx: RuleContext): CommandFinding | undefined {
  const args = cmd.args;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const prev = args[i - 1];
    if (a.dynamic) {
      if (prev && !prev.dynamic && (FIND_VALUED.has(prev.text) || /^-newer[a-zA-Z]{2}$/.test(prev.text))) continue;
      // A starting point before the first predicate is a path.
      if (args.slice(0, i).every((p) => p.dynamic || !p.text.startsWith("-") || p.text === "-")) continue;
      return flag(cmd, "find with an argument computed at run time");
    }
    const w = FIND_WRITES[a.text];
    if (w) return flag(cmd, w);
    if (a.text === "-exec" || a.text === "-execdir" || a.text === "-ok" || a.text === "-okdir") {
      let j = i + 1;
      while (j < args.length && !(args[j]!.text === ";" || (args[j]!.text === "+" && args[j - 1]?.text === "{}"))) j++;
      if (j >= args.length) return flag(cmd, `find ${a.text} without a terminating ;`);
      const inner = args.slice(i + 1, j);
      const f = checkArgv(inner, argvText(inner), cx);
      if (f) return { command: f.command, reason: `find ${a.text}: ${f.reason}` };
      i = j;
      continue;
    }
    if (FIND_VALUED.has(a.text) || /^-newer[a-zA-Z]{2}$/.test(a.text)) i++;
  }
  return undefined;
}
