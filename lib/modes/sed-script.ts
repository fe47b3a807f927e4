/**
 * sed under the Plan-mode guard: `-i` edits in place, and a script can write (`w`, `s///w`) or
 * run commands (`e`, `s///e`). The script is read command by command as GNU sed reads it, so
 * a `w` inside a regular expression or a replacement is not mistaken for one; a script that
 * cannot be read is refused.
 */
import { flag, type Arg, type Cmd, type CommandFinding } from "./command-types";

export function sedRule(cmd: Cmd): CommandFinding | undefined {
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

