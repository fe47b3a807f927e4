/**
 * Per-command rules of the Plan-mode command guard (see command-guard.ts).
 *
 * The guard is an allow list: a command is allowed when it is known to only read (READ_ONLY),
 * or when its own rule (RULES) finds nothing that writes. Every other command is refused.
 * Wrappers (`env`, `xargs`, `timeout`, `find -exec`, …) are unwrapped and the wrapped command
 * is checked the same way; code in strings (`bash -c`, `eval`, `trap`) goes back to the
 * parser through `cx.checkSource`.
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

type Rule = (cmd: Cmd, cx: RuleContext) => CommandFinding | undefined;

const flag = (cmd: Cmd, reason: string): CommandFinding => ({ command: cmd.text, reason });

/** Output targets that never touch a file. */
export const HARMLESS_OUTPUT_TARGETS: ReadonlySet<string> = new Set(["/dev/null", "/dev/stdout", "/dev/stderr"]);

/** Commands that only read, whatever their arguments. */
export const READ_ONLY_COMMANDS: ReadonlySet<string> = new Set([
  // just-bash commands
  "echo", "cat", "printf", "ls", "pwd", "readlink", "realpath", "head", "tail", "wc", "stat", "grep", "fgrep", "egrep",
  "comm", "cut", "paste", "tr", "rev", "nl", "fold", "expand", "unexpand", "strings", "column", "join", "basename",
  "dirname", "du", "printenv", "true", "false", "jq", "base64", "diff", "date", "sleep", "seq", "expr", "md5sum",
  "sha1sum", "sha256sum", "sha512sum", "cksum", "html-to-markdown", "help", "which", "tac", "hostname", "whoami", "od",
  "zcat", "clear", "cmp", "id", "uname", "nproc", "locale", "tty", "whereis", "hexdump", "xxd", "yes", "fmt", "numfmt",
  "shuf", "look", "tsort", "factor", "bzcat", "xzcat",
  // shell builtins that cannot write
  "cd", "pushd", "popd", "dirs", "set", "shopt", "unset", "shift", "exit", "return", "break", "continue", "local",
  "readonly", "declare", "typeset", "export", "read", "test", "[", "type", "let", "getopts", "wait", "true", ":",
  "times", "umask", "ulimit", "jobs", "caller", "unalias", "logout",
]);

/** Builtins that evaluate their arguments as arithmetic or variable names (subscripts run `$(…)`). */
const EVALUATING_BUILTINS: ReadonlySet<string> = new Set([
  "let", "declare", "typeset", "local", "export", "readonly", "unset", "read", "readarray", "mapfile", "printf", "test",
  "[", "getopts", "shift", "return", "exit",
]);

/** Variables that make later commands run other programs. */
export function isDangerousVariable(name: string): boolean {
  return /^(BASH_ENV|ENV|PROMPT_COMMAND|PS[0-4]|SHELLOPTS|BASHOPTS|PATH|LD_PRELOAD|LD_LIBRARY_PATH|LD_AUDIT|DYLD_.*|NODE_OPTIONS|PYTHONSTARTUP|PYTHONPATH|PERL5OPT|RUBYOPT|PAGER|MANPAGER|EDITOR|VISUAL|LESSOPEN|LESSCLOSE|GIT_(PAGER|EDITOR|SEQUENCE_EDITOR|EXTERNAL_DIFF|SSH|SSH_COMMAND|ASKPASS|EXEC_PATH|CONFIG.*|PROXY_COMMAND|TEMPLATE_DIR)|SSH_ASKPASS|BROWSER)$/.test(
    name,
  );
}

/** Text that bash would run if it were evaluated as arithmetic or a subscript. */
export function hasCommandText(s: string): boolean {
  return s.includes("$(") || s.includes("`") || s.includes("<(") || s.includes(">(");
}

/** Commands that write, with the reason shown to the model. */
const WRITERS: Record<string, string> = {
  rm: "rm deletes files",
  rmdir: "rmdir deletes directories",
  unlink: "unlink deletes files",
  shred: "shred destroys files",
  mv: "mv moves or renames files",
  cp: "cp copies files",
  install: "install copies files",
  ln: "ln creates links",
  link: "link creates links",
  touch: "touch creates or updates files",
  mkdir: "mkdir creates directories",
  mkfifo: "mkfifo creates files",
  mknod: "mknod creates files",
  chmod: "chmod changes file permissions",
  chown: "chown changes file owners",
  chgrp: "chgrp changes file groups",
  chattr: "chattr changes file attributes",
  setfacl: "setfacl changes file permissions",
  truncate: "truncate changes file sizes",
  split: "split writes files",
  csplit: "csplit writes files",
  sponge: "sponge writes files",
  rsync: "rsync copies files",
  scp: "scp copies files",
  zip: "zip writes archives",
  bzip2: "bzip2 compresses or expands files in place",
  bunzip2: "bunzip2 expands files in place",
  xz: "xz compresses or expands files in place",
  unxz: "unxz expands files in place",
  zstd: "zstd compresses files",
  compress: "compress compresses files in place",
  uncompress: "uncompress expands files in place",
  wget: "wget downloads files",
  vi: "vi edits files",
  vim: "vim edits files",
  nvim: "nvim edits files",
  nano: "nano edits files",
  emacs: "emacs edits files",
  ed: "ed edits files",
  ex: "ex edits files",
  pico: "pico edits files",
  code: "code edits files",
  sudo: "sudo runs commands as another user",
  doas: "doas runs commands as another user",
  su: "su runs commands as another user",
  kill: "kill stops processes",
  pkill: "pkill stops processes",
  killall: "killall stops processes",
  crontab: "crontab changes scheduled jobs",
  ssh: "ssh runs commands on another machine",
  watch: "watch runs commands repeatedly",
  parallel: "parallel runs commands",
  script: "script writes a typescript file",
  make: "make runs build commands",
  tempfile: "tempfile creates files",
};

const PACKAGE_MANAGERS: ReadonlySet<string> = new Set([
  "npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx", "corepack", "pip", "pip3", "pipx", "poetry", "uv", "uvx", "conda",
  "mamba", "cargo", "go", "gem", "bundle", "bundler", "composer", "apt", "apt-get", "aptitude", "dpkg", "brew", "dnf",
  "yum", "apk", "pacman", "zypper", "snap", "flatpak", "nix", "nix-env", "port", "mvn", "gradle", "dotnet", "nuget",
]);

const INTERPRETERS: ReadonlySet<string> = new Set([
  "node", "nodejs", "js-exec", "deno", "tsx", "ts-node", "python", "python2", "python3", "pypy", "pypy3", "perl",
  "ruby", "irb", "php", "lua", "luajit", "Rscript", "R", "julia", "osascript", "pwsh", "powershell", "tclsh", "wish",
  "guile", "racket", "sbcl", "clisp", "ghci", "runghc", "scala", "kotlin", "groovy", "java", "jshell", "swift",
  "elixir", "erl", "escript", "awk-exec",
]);

const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"]);

/** Options whose value is the next argument, per command (short form without the dash). */
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

/**
 * Subcommands of package managers that only read (list, show, explain). Each manager's other
 * subcommands, and the unknown ones (pnpm and yarn run a package.json script of that name),
 * are refused. Some read forms have writing variants, refused below (npm audit fix, config set…).
 */
const PACKAGE_MANAGER_READS: Record<string, ReadonlySet<string>> = {
  npm: new Set(["ls", "list", "ll", "la", "view", "v", "info", "show", "outdated", "why", "explain", "search", "s", "se", "find", "help", "prefix", "root", "query", "audit", "config", "c", "pkg", "sbom", "whoami", "ping"]),
  pnpm: new Set(["ls", "list", "ll", "la", "view", "info", "show", "outdated", "why", "search", "help", "root", "audit", "config", "c", "licenses", "store"]),
  yarn: new Set(["list", "info", "why", "outdated", "help", "licenses", "audit", "config", "versions", "workspaces"]),
  bun: new Set(["outdated", "why", "info", "pm"]),
  pip: new Set(["list", "show", "freeze", "check", "help", "config", "debug", "inspect", "index", "cache"]),
  pip3: new Set(["list", "show", "freeze", "check", "help", "config", "debug", "inspect", "index", "cache"]),
  cargo: new Set(["search", "help", "locate-project", "version"]),
  go: new Set(["version", "env", "doc", "help"]),
  gem: new Set(["list", "search", "info", "specification", "contents", "environment", "help", "which", "outdated"]),
  brew: new Set(["list", "ls", "info", "search", "deps", "uses", "leaves", "desc", "config"]),
  composer: new Set(["show", "info", "outdated", "licenses", "why", "depends", "why-not", "prohibits", "search", "help"]),
  poetry: new Set(["show", "check", "help", "env"]),
  conda: new Set(["list", "info", "search"]),
  apt: new Set(["list", "show", "search", "policy", "depends", "rdepends"]),
};

/** Second words that turn a read-only subcommand into a writing one ("config set", "audit fix"). */
const PACKAGE_MANAGER_WRITING_FORMS =
  /^(fix|set|delete|del|rm|remove|unset|edit|add|prune|purge|clear|clean|import|use|focus|foreach|install|generate-rc|signatures-fix)$/;

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
  const inline = args.some((a) => /^(-[A-Za-z]*[ecpr]|--eval|--print|--command|eval|-E)$/.test(a)) || (name === "deno" && args[0] === "eval");
  if (name === "perl" && perlEditsInPlace(args)) return flag(cmd, "perl -i edits files in place");
  return flag(cmd, inline ? `${name} runs inline code that can change files` : `${name} runs a program that can change files`);
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

const FIND_VALUED = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype", "-maxdepth",
  "-mindepth", "-newer", "-anewer", "-cnewer", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-perm",
  "-user", "-group", "-uid", "-gid", "-links", "-inum", "-samefile", "-lname", "-ilname", "-printf", "-used", "-fstype",
  "-context", "-regextype", "-D", "-O", "-files0-from",
]);
const FIND_WRITES: Record<string, string> = {
  "-delete": "find -delete deletes files",
  "-fprint": "find -fprint writes a file",
  "-fprint0": "find -fprint0 writes a file",
  "-fprintf": "find -fprintf writes a file",
  "-fls": "find -fls writes a file",
};

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

// ---- sed ------------------------------------------------------------------------------------

function sedRule(cmd: Cmd): CommandFinding | undefined {
  const scripts: Arg[] = [];
  let scriptGiven = false;
  let options = true;
  for (let i = 0; i < cmd.args.length; i++) {
    const a = cmd.args[i]!;
    if (options && a.text === "--") {
      options = false;
      continue;
    }
    if (options && !a.dynamic && a.text.startsWith("--")) {
      const [opt, ...v] = a.text.split("=");
      if (opt === "--in-place" || ("--in-place".startsWith(opt!) && opt!.length > 4)) return flag(cmd, "sed -i edits files in place");
      if (opt === "--expression") {
        scripts.push(v.length ? { text: v.join("="), dynamic: false } : (cmd.args[++i] ?? { text: "", dynamic: false }));
        scriptGiven = true;
        continue;
      }
      if (opt === "--file") return flag(cmd, "sed -f runs a script file that cannot be checked");
      if (/^--(quiet|silent|regexp-extended|posix|separate|null-data|zero-terminated|unbuffered|debug|sandbox|follow-symlinks|line-length|help|version)$/.test(opt!)) continue;
      return flag(cmd, `sed ${opt} is not a known option`);
    }
    if (options && !a.dynamic && a.text.startsWith("-") && a.text !== "-") {
      const c = a.text.slice(1);
      for (let k = 0; k < c.length; k++) {
        const ch = c[k]!;
        if (ch === "i") return flag(cmd, "sed -i edits files in place");
        if (ch === "e" || ch === "f" || ch === "l") {
          const rest = c.slice(k + 1);
          const value = rest.length > 0 ? { text: rest, dynamic: false } : cmd.args[++i];
          if (ch === "f") return flag(cmd, "sed -f runs a script file that cannot be checked");
          if (ch === "e") {
            scripts.push(value ?? { text: "", dynamic: false });
            scriptGiven = true;
          }
          break;
        }
        if (!"nrEsuzb".includes(ch)) return flag(cmd, `sed -${ch} is not a known option`);
      }
      continue;
    }
    if (options && a.dynamic && !scriptGiven) return flag(cmd, "sed with a script computed at run time");
    if (!scriptGiven) {
      scripts.push(a);
      scriptGiven = true;
    }
  }
  for (const s of scripts) {
    if (s.dynamic) return flag(cmd, "sed with a script computed at run time");
    const r = sedScriptWrites(s.text);
    if (r) return flag(cmd, r);
  }
  return undefined;
}

/** Why a sed script writes or runs something, or undefined. Unparseable scripts are refused. */
export function sedScriptWrites(script: string): string | undefined {
  let i = 0;
  const n = script.length;
  const skipSpace = () => {
    while (i < n && (script[i] === " " || script[i] === "\t")) i++;
  };
  const readDelimited = (delim: string): boolean => {
    // reads up to the unescaped delimiter; returns false when it is missing
    while (i < n) {
      const ch = script[i]!;
      if (ch === "\\") {
        i += 2;
        continue;
      }
      if (ch === "\n" && delim !== "\n") {
        // GNU sed allows a newline in the replacement only when escaped
        return false;
      }
      if (ch === delim) {
        i++;
        return true;
      }
      i++;
    }
    return false;
  };
  const toEndOfCommand = () => {
    while (i < n && script[i] !== "\n" && script[i] !== ";" && script[i] !== "}") i++;
  };
  const toEndOfLine = () => {
    while (i < n && script[i] !== "\n") {
      if (script[i] === "\\" && script[i + 1] === "\n") i++;
      i++;
    }
  };
  const readAddress = (): boolean => {
    const ch = script[i];
    if (ch === undefined) return true;
    if (/[0-9]/.test(ch)) {
      while (i < n && /[0-9~]/.test(script[i]!)) i++;
      return true;
    }
    if (ch === "$") {
      i++;
      return true;
    }
    if (ch === "/" || ch === "\\") {
      let delim = "/";
      if (ch === "\\") {
        delim = script[i + 1] ?? "";
        i += 2;
      } else i++;
      if (!delim || !readDelimited(delim)) return false;
      while (i < n && /[IM]/.test(script[i]!)) i++;
      return true;
    }
    return true;
  };
  while (i < n) {
    while (i < n && /[\s;]/.test(script[i]!)) i++;
    if (i >= n) break;
    if (script[i] === "#") {
      toEndOfLine();
      continue;
    }
    if (!readAddress()) return "the sed script could not be checked";
    skipSpace();
    if (script[i] === ",") {
      i++;
      skipSpace();
      if (script[i] === "+" || script[i] === "~") i++;
      if (!readAddress()) return "the sed script could not be checked";
      skipSpace();
    }
    while (script[i] === "!") {
      i++;
      skipSpace();
    }
    const c = script[i];
    if (c === undefined) return undefined;
    i++;
    switch (c) {
      case "{":
      case "}":
      case "=":
      case "d":
      case "D":
      case "g":
      case "G":
      case "h":
      case "H":
      case "n":
      case "N":
      case "p":
      case "P":
      case "x":
      case "z":
      case "F":
        break;
      case "q":
      case "Q":
      case "l":
      case "L":
      case "v":
        skipSpace();
        while (i < n && /[0-9.]/.test(script[i]!)) i++;
        break;
      case ":":
      case "b":
      case "t":
      case "T":
      case "r":
      case "R":
        // A label or a file name ends at ";" too (GNU sed and just-bash run what follows).
        toEndOfCommand();
        break;
      case "a":
      case "i":
      case "c":
        // One-liner text runs to the end of the line, ";" included.
        toEndOfLine();
        break;
      case "w":
      case "W":
        return "sed w writes a file";
      case "e":
        return "sed e runs commands";
      case "y": {
        const d = script[i];
        if (!d || d === "\\" || d === "\n") return "the sed script could not be checked";
        i++;
        if (!readDelimited(d) || !readDelimited(d)) return "the sed script could not be checked";
        break;
      }
      case "s": {
        const d = script[i];
        if (!d || d === "\\" || d === "\n") return "the sed script could not be checked";
        i++;
        if (!readDelimited(d) || !readDelimited(d)) return "the sed script could not be checked";
        while (i < n && /[gpiImMe0-9w]/.test(script[i]!)) {
          if (script[i] === "w") return "sed s///w writes a file";
          if (script[i] === "e") return "sed s///e runs commands";
          i++;
        }
        break;
      }
      default:
        return "the sed script could not be checked";
    }
  }
  return undefined;
}

// ---- awk ------------------------------------------------------------------------------------

function awkRule(cmd: Cmd): CommandFinding | undefined {
  const valued = new Set(["-F", "-v", "--field-separator", "--assign"]);
  let program: Arg | undefined;
  for (let i = 0; i < cmd.args.length; i++) {
    const a = cmd.args[i]!;
    if (a.text === "--") {
      program = cmd.args[i + 1];
      break;
    }
    if (!a.dynamic && a.text.startsWith("-") && a.text !== "-") {
      if (valued.has(a.text)) {
        i++;
        continue;
      }
      if (/^-[Fv]./.test(a.text) || /^--(field-separator|assign)=/.test(a.text)) continue;
      if (a.text === "-f" || a.text.startsWith("--file") || /^-f./.test(a.text) || a.text === "-E" || a.text === "--exec") {
        return flag(cmd, "awk -f runs a program file that cannot be checked");
      }
      if (a.text === "-i" || a.text.startsWith("--include") || a.text === "-l" || a.text.startsWith("--load")) {
        return flag(cmd, "awk -i loads extensions (inplace edits files)");
      }
      if (a.text === "-e" || a.text === "--source") {
        program = cmd.args[i + 1];
        break;
      }
      continue;
    }
    program = a;
    break;
  }
  if (!program) return undefined;
  if (program.dynamic) return flag(cmd, "awk with a program computed at run time");
  const r = awkProgramWrites(program.text);
  return r ? flag(cmd, r) : undefined;
}

/** Why an awk program writes or runs something, or undefined. */
export function awkProgramWrites(program: string): string | undefined {
  if (/@(load|include)\b/.test(program)) return "awk @load/@include loads code";
  // Blank out strings and regex literals so `print "a > b"` and `/a|b/` don't count.
  let out = "";
  let i = 0;
  let lastSignificant = "";
  while (i < program.length) {
    const ch = program[i]!;
    if (ch === "#") {
      while (i < program.length && program[i] !== "\n") i++;
      continue;
    }
    if (ch === '"') {
      i++;
      while (i < program.length && program[i] !== '"') i += program[i] === "\\" ? 2 : 1;
      i++;
      out += '""';
      lastSignificant = '"';
      continue;
    }
    if (ch === "/" && (lastSignificant === "" || /[(,{;!~&|}\n:?=+\-*%<>[]/.test(lastSignificant) || /\b(print|printf|return|in)$/.test(out.trimEnd()))) {
      i++;
      let inClass = false;
      while (i < program.length && (inClass || program[i] !== "/") && program[i] !== "\n") {
        if (program[i] === "\\") i++;
        else if (program[i] === "[") inClass = true;
        else if (program[i] === "]") inClass = false;
        i++;
      }
      i++;
      out += "//";
      lastSignificant = "/";
      continue;
    }
    out += ch;
    if (!/\s/.test(ch) || ch === "\n") lastSignificant = ch;
    i++;
  }
  if (/\bsystem\s*\(/.test(out)) return "awk system() runs commands";
  if (/\|&?/.test(out.replace(/\|\|/g, ""))) return "awk pipes to or from a command";
  // `>` inside a print statement (outside parentheses) is an output redirection.
  const re = /\bprintf?\b/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(out))) {
    let depth = 0;
    for (let k = m.index + m[0].length; k < out.length; k++) {
      const c = out[k]!;
      if (c === "(" || c === "[") depth++;
      else if (c === ")" || c === "]") {
        if (depth === 0) break;
        depth--;
      } else if (depth === 0 && (c === ";" || c === "}" || c === "\n" || c === "{")) break;
      else if (depth === 0 && c === ">") return "awk print > writes a file";
    }
  }
  return undefined;
}

// ---- git ------------------------------------------------------------------------------------

/** git subcommands that only read (some forms of branch/tag/config/stash… are checked below). */
const GIT_READ = new Set([
  "status", "diff", "log", "show", "blame", "annotate", "ls-files", "ls-tree", "rev-parse", "grep", "shortlog",
  "describe", "cat-file", "rev-list", "name-rev", "merge-base", "for-each-ref", "show-ref", "count-objects", "version",
  "help", "check-ignore", "check-attr", "whatchanged", "var", "show-branch", "cherry", "range-diff", "diff-tree",
  "diff-files", "diff-index", "verify-commit", "verify-tag", "ls-remote",
]);

const GIT_MUTATING_REASON: Record<string, string> = {
  add: "git add changes the index",
  commit: "git commit records a commit",
  apply: "git apply changes files",
  am: "git am applies patches",
  checkout: "git checkout changes files",
  switch: "git switch changes files",
  restore: "git restore changes files",
  reset: "git reset changes the index and files",
  clean: "git clean deletes files",
  rm: "git rm deletes files",
  mv: "git mv moves files",
  merge: "git merge changes files",
  rebase: "git rebase rewrites history",
  "cherry-pick": "git cherry-pick changes files",
  revert: "git revert changes files",
  pull: "git pull changes files",
  push: "git push changes a remote",
  fetch: "git fetch changes the repository",
  clone: "git clone writes a repository",
  init: "git init writes a repository",
  gc: "git gc rewrites the repository",
  prune: "git prune deletes objects",
  "format-patch": "git format-patch writes files",
  bisect: "git bisect changes files",
  "update-index": "git update-index changes the index",
  "update-ref": "git update-ref changes refs",
  "hash-object": "git hash-object can write objects",
  "read-tree": "git read-tree changes the index",
  "write-tree": "git write-tree writes objects",
  "commit-tree": "git commit-tree writes objects",
  "filter-branch": "git filter-branch rewrites history",
  "sparse-checkout": "git sparse-checkout changes files",
  submodule: "git submodule changes the repository",
  worktree: "git worktree changes worktrees",
  notes: "git notes changes notes",
  replace: "git replace changes refs",
  lfs: "git lfs changes files",
  archive: "git archive writes archives",
  bundle: "git bundle writes files",
  "symbolic-ref": "git symbolic-ref changes refs",
  reflog: "git reflog changes the reflog",
  stash: "git stash changes files",
  remote: "git remote changes the configuration",
  config: "git config changes the configuration",
  branch: "git branch changes branches",
  tag: "git tag changes tags",
};

const GIT_DANGEROUS_CONFIG =
  /(^alias\.|pager|editor|program|command|cmd|hook|textconv|external|^filter\.|driver|helper|askpass|fsmonitor|ssh|proxy|exec|^include|^sequence\.|^gpg\.|^credential|^uploadpack|^receive\.|^url\.|^remote\.|^core\.worktree|^core\.gitproxy|^diff\..*\.|^merge\..*\.)/i;

function gitRule(cmd: Cmd): CommandFinding | undefined {
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
  const texts = rest.map((a) => a.text);
  const positional = rest.filter((a) => a.dynamic || !a.text.startsWith("-"));
  const mutating = () => flag(cmd, GIT_MUTATING_REASON[sub] ?? `git ${sub} changes the repository`);
  // `git <cmd> --help` is `git help <cmd>` (git.c rewrites it before the command runs), and a
  // lone `-h` prints the usage and exits: neither runs the command.
  if (texts[0] === "--help" || (texts.length === 1 && texts[0] === "-h")) return undefined;

  if (GIT_READ.has(sub)) {
    if (texts.some((t) => /^--(output|ext-diff|open-files-in-pager)(=|$)/.test(t) || t === "-O" || /^-O./.test(t) && sub === "grep")) {
      return flag(cmd, `git ${sub} with this option writes a file or runs a program`);
    }
    if (texts.some((t) => /^--(textconv|upload-pack|exec)(=|$)/.test(t) && t.includes("="))) return flag(cmd, `git ${sub} with this option runs a program`);
    return undefined;
  }
  switch (sub) {
    case "branch": {
      const listOnly = /^(-a|-r|-v|-vv|-l|--list|--all|--remotes|--verbose|--show-current|--no-color|--color(=.*)?|--contains|--no-contains|--merged|--no-merged|--points-at|--sort(=.*)?|--format(=.*)?|--column(=.*)?|--no-column|--abbrev(=.*)?|--no-abbrev|-i|--ignore-case|-q|--quiet|-avv|-av|-rv|-vva|-va)$/;
      const opts = rest.filter((a) => !a.dynamic && a.text.startsWith("-"));
      if (!opts.every((a) => listOnly.test(a.text) || /^--(sort|format|contains|merged|no-merged|no-contains|points-at)=/.test(a.text))) return mutating();
      const listing = texts.some((t) => t === "-l" || t === "--list" || t === "--contains" || t === "--merged" || t === "--no-merged" || t === "--points-at" || t === "--no-contains");
      if (positional.length > 0 && !listing) return mutating();
      return undefined;
    }
    case "tag": {
      const listing = texts.some((t) => t === "-l" || t === "--list" || /^-n\d*$/.test(t) || t === "--contains" || t === "--merged" || t === "--points-at" || t === "--no-contains" || t === "--no-merged");
      const writes = texts.some((t) => /^-[adsfmuF]|^--(annotate|delete|sign|force|message|file|edit|local-user)/.test(t));
      if (writes) return mutating();
      if (positional.length > 0 && !listing) return mutating();
      return undefined;
    }
    case "remote": {
      if (rest.length === 0 || texts.every((t) => t === "-v" || t === "--verbose")) return undefined;
      if (texts[0] === "get-url") return undefined;
      if (texts[0] === "show") return undefined;
      return mutating();
    }
    case "config": {
      if (texts[0] === "get" || texts[0] === "list") return undefined;
      const writeOps = /^(--unset|--unset-all|--add|--replace-all|--rename-section|--remove-section|-e|--edit|--file|-f|--blob|set|unset|rename-section|remove-section|edit)(=|$)/;
      if (texts.some((t) => writeOps.test(t))) return mutating();
      const hasRead = texts.some((t) => /^(--get|--get-all|--get-regexp|--get-urlmatch|--list|-l)$/.test(t));
      if (hasRead || positional.length <= 1) return undefined;
      return mutating();
    }
    case "stash":
      if (texts[0] === "list" || texts[0] === "show") return undefined;
      return mutating();
    case "reflog":
      if (texts.length === 0 || texts[0] === "show" || texts[0]!.startsWith("-")) {
        if (texts[0] === "expire" || texts[0] === "delete") return mutating();
        return undefined;
      }
      return mutating();
    case "worktree":
      return texts[0] === "list" ? undefined : mutating();
    case "notes":
      return texts[0] === "list" || texts[0] === "show" ? undefined : mutating();
    case "submodule":
      return texts.length === 0 || texts[0] === "status" || texts[0] === "summary" ? undefined : mutating();
    case "symbolic-ref":
      return positional.length <= 1 && !texts.some((t) => t === "-d" || t === "--delete" || t === "-m") ? undefined : mutating();
    default:
      return mutating();
  }
}
