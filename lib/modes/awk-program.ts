/**
 * awk under the Plan-mode guard: a program can write (`print > file`, `printf >> file`), pipe
 * to commands (`print | "cmd"`, `"cmd" | getline`) or run them (`system()`). The program is
 * scanned outside its strings and regular expressions for those forms.
 */
import { flag, type Arg, type Cmd, type CommandFinding } from "./command-types";

export function awkRule(cmd: Cmd): CommandFinding | undefined {
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

