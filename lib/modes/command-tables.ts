/**
 * The data of the Plan-mode command guard: which commands only read, which write (with the
 * reason the model is shown), which are package managers, interpreters and shells (each has
 * its own rule), and the option tables of find and the package managers' read-only
 * subcommands. Reviewed like code: a command moved into READ_ONLY_COMMANDS must never write,
 * whatever its arguments.
 *
 * Framework-free; no imports.
 */

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
export const EVALUATING_BUILTINS: ReadonlySet<string> = new Set([
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
export const WRITERS: Record<string, string> = {
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

export const PACKAGE_MANAGERS: ReadonlySet<string> = new Set([
  "npm", "npx", "pnpm", "pnpx", "yarn", "bun", "bunx", "corepack", "pip", "pip3", "pipx", "poetry", "uv", "uvx", "conda",
  "mamba", "cargo", "go", "gem", "bundle", "bundler", "composer", "apt", "apt-get", "aptitude", "dpkg", "brew", "dnf",
  "yum", "apk", "pacman", "zypper", "snap", "flatpak", "nix", "nix-env", "port", "mvn", "gradle", "dotnet", "nuget",
]);

export const INTERPRETERS: ReadonlySet<string> = new Set([
  "node", "nodejs", "js-exec", "deno", "tsx", "ts-node", "python", "python2", "python3", "pypy", "pypy3", "perl",
  "ruby", "irb", "php", "lua", "luajit", "Rscript", "R", "julia", "osascript", "pwsh", "powershell", "tclsh", "wish",
  "guile", "racket", "sbcl", "clisp", "ghci", "runghc", "scala", "kotlin", "groovy", "java", "jshell", "swift",
  "elixir", "erl", "escript", "awk-exec",
]);

/**
 * Interpreters the workspace shell runs in the tab, on the same file-system view as the shell:
 * in Plan and Review mode that view is read-only, so a script that only reads works and a write
 * fails there (EROFS). Refusing them up front would refuse only the reads; the guarantee is the
 * view, not this list. (Other interpreters do not exist in this shell and stay refused.)
 */
export const IN_TAB_INTERPRETERS: ReadonlySet<string> = new Set(["python", "python3", "node", "nodejs"]);

export const SHELLS: ReadonlySet<string> = new Set(["bash", "sh", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"]);


/**
 * Subcommands of package managers that only read (list, show, explain). Each manager's other
 * subcommands, and the unknown ones (pnpm and yarn run a package.json script of that name),
 * are refused. Some read forms have writing variants, refused below (npm audit fix, config set…).
 */
export const PACKAGE_MANAGER_READS: Record<string, ReadonlySet<string>> = {
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
export const PACKAGE_MANAGER_WRITING_FORMS =
  /^(fix|set|delete|del|rm|remove|unset|edit|add|prune|purge|clear|clean|import|use|focus|foreach|install|generate-rc|signatures-fix)$/;


export const FIND_VALUED = new Set([
  "-name", "-iname", "-path", "-ipath", "-wholename", "-iwholename", "-regex", "-iregex", "-type", "-xtype", "-maxdepth",
  "-mindepth", "-newer", "-anewer", "-cnewer", "-size", "-mtime", "-mmin", "-atime", "-amin", "-ctime", "-cmin", "-perm",
  "-user", "-group", "-uid", "-gid", "-links", "-inum", "-samefile", "-lname", "-ilname", "-printf", "-used", "-fstype",
  "-context", "-regextype", "-D", "-O", "-files0-from",
]);
export const FIND_WRITES: Record<string, string> = {
  "-delete": "find -delete deletes files",
  "-fprint": "find -fprint writes a file",
  "-fprint0": "find -fprint0 writes a file",
  "-fprintf": "find -fprintf writes a file",
  "-fls": "find -fls writes a file",
};

