/**
 * The Plan-mode command guard: `findFileEditingCommand(command)` tells whether a shell command
 * line could change files, before it runs, for a clear refusal ("rm deletes files") instead of a
 * string of EROFS errors. It is the first of two layers: the shell itself runs on a read-only
 * view of the workspace in Plan and Review mode, which holds even for a trick this check misses.
 *
 * How it works:
 * - The command is parsed with the shell's own parser (just-bash), so it sees what the shell will
 *   run. Two parses: the raw text (what the workspace shell runs, `rawScript: true`) and the
 *   line-trimmed text (what `bash -c`/`sh -c` run); a command is refused when either would
 *   write. A parse failure is refused (fail closed).
 *   In Node just-bash exports `parse`; its browser bundle does not, so there the raw AST is taken
 *   from a transform plugin during `exec(cmd, { rawScript: true })` that throws before anything
 *   runs (the plugin runs synchronously, before the first await of `exec`).
 * - A generic deep walk visits every object of the AST (no list of node types to fall out of date):
 *   every simple command is classified (command-rules.ts: an allow list), every output
 *   redirection must go to /dev/null, /dev/stdout, /dev/stderr or another fd, function
 *   definitions are refused, and command text that the AST keeps raw (`$(( $(…) ))`) is parsed
 *   again and checked.
 *
 * Framework-free: just-bash is imported lazily by `prepareCommandGuard()`; nothing here touches
 * a browser global at import time.
 */
import {
  type Arg,
  classify,
  type CommandFinding,
  hasCommandText,
  HARMLESS_OUTPUT_TARGETS,
  isDangerousVariable,
  type RuleContext,
} from "./command-rules";

export type { CommandFinding } from "./command-rules";
export { READ_ONLY_COMMANDS, sedScriptWrites, awkProgramWrites } from "./command-rules";

/** A guard: undefined means the command is allowed. */
export type CommandGuard = (command: string) => CommandFinding | undefined;

/** What the guard needs of just-bash: its Node entry (with `parse`) or its browser entry. */
export interface JustBashModuleLike {
  parse?: (script: string) => unknown;
  Bash: new (options?: any) => BashLike;
}

interface BashLike {
  exec(script: string, options?: any): Promise<unknown>;
  transform?(script: string): { ast: unknown };
  registerTransformPlugin?(plugin: any): void;
}

/** Reason given while just-bash is still loading. */
export const GUARD_LOADING_REASON = "command guard still loading";

/** How deep `bash -c "eval '…'"` nesting is followed before refusing. */
const MAX_DEPTH = 8;
/** Longest command line checked (longer ones are refused). */
const MAX_COMMAND_CHARS = 200_000;

type ParseResult = { ok: true; ast: unknown } | { ok: false; error: string };
type Parser = (source: string) => ParseResult;

type Node = { type?: unknown; [key: string]: unknown };

function isNode(x: unknown): x is Node {
  return typeof x === "object" && x !== null && !Array.isArray(x);
}

function errorText(e: unknown): string {
  const m = e instanceof Error ? e.message : String(e);
  return m.split("\n", 1)[0]!.slice(0, 200);
}

class CaptureStop extends Error {
  constructor() {
    super("command guard: parse only");
    this.name = "CommandGuardCapture";
  }
}

/** The raw parse: `parse` in Node, a capturing transform plugin in the browser bundle. */
function rawParser(jb: JustBashModuleLike): Parser {
  const parse = jb.parse;
  if (typeof parse === "function") {
    return (source) => {
      try {
        return { ok: true, ast: parse(source) };
      } catch (e) {
        return { ok: false, error: errorText(e) };
      }
    };
  }
  const bash = new jb.Bash({ defenseInDepth: false });
  if (typeof bash.registerTransformPlugin !== "function") throw new Error("just-bash has neither parse nor transform plugins");
  let captured: unknown;
  let armed = false;
  bash.registerTransformPlugin({
    name: "tabula-command-guard",
    transform(ctx: { ast: unknown }) {
      if (armed) captured = ctx.ast;
      // Never let the script run, armed or not.
      throw new CaptureStop();
    },
  });
  return (source) => {
    captured = undefined;
    armed = true;
    try {
      const p = bash.exec(source, { rawScript: true });
      p.then(
        () => undefined,
        () => undefined,
      );
    } catch (e) {
      return { ok: false, error: errorText(e) };
    } finally {
      armed = false;
    }
    if (captured !== undefined) return { ok: true, ast: captured };
    return { ok: false, error: "syntax error" };
  };
}

/** The parse `bash -c` and a non-raw exec use: every line's leading blanks trimmed first. */
function trimmedParser(jb: JustBashModuleLike): Parser {
  const bash = new jb.Bash({ defenseInDepth: false });
  if (typeof bash.transform !== "function") throw new Error("just-bash has no transform()");
  return (source) => {
    try {
      return { ok: true, ast: bash.transform!(source).ast };
    } catch (e) {
      return { ok: false, error: errorText(e) };
    }
  };
}

// ---- words ----------------------------------------------------------------------------------

/** Static text of a word (quotes and escapes removed); `dynamic` when part of it is only known
 * at run time (expansions, substitutions, brace expansion). Globs count as their pattern text. */
function wordArg(word: unknown): Arg {
  if (!isNode(word) || !Array.isArray(word.parts)) return { text: "", dynamic: true };
  let text = "";
  let dynamic = false;
  for (const p of word.parts as unknown[]) {
    if (!isNode(p)) {
      dynamic = true;
      continue;
    }
    switch (p.type) {
      case "Literal":
      case "SingleQuoted":
      case "Escaped":
        text += String(p.value ?? "");
        break;
      case "DoubleQuoted": {
        const inner = wordArg({ parts: p.parts });
        text += inner.text;
        dynamic ||= inner.dynamic;
        break;
      }
      case "Glob":
        text += String(p.pattern ?? "");
        break;
      case "TildeExpansion":
        text += "~" + (typeof p.user === "string" ? p.user : "");
        break;
      default:
        text += renderPart(p);
        dynamic = true;
    }
  }
  return { text, dynamic };
}

/** Static command name, or undefined when any part of it is computed (or a glob/tilde). */
function staticName(word: unknown): string | undefined {
  if (!isNode(word) || !Array.isArray(word.parts)) return undefined;
  let text = "";
  for (const p of word.parts as unknown[]) {
    if (!isNode(p)) return undefined;
    if (p.type === "Literal" || p.type === "SingleQuoted" || p.type === "Escaped") text += String(p.value ?? "");
    else if (p.type === "Glob" && p.pattern === "[") text += "["; // `[ -f x ]`: not a pattern
    else if (p.type === "DoubleQuoted") {
      const inner = staticName({ parts: p.parts });
      if (inner === undefined) return undefined;
      text += inner;
    } else return undefined;
  }
  return text;
}

function renderWord(word: unknown): string {
  if (!isNode(word) || !Array.isArray(word.parts)) return "";
  return (word.parts as unknown[]).map((p) => (isNode(p) ? renderPart(p) : "")).join("");
}

function renderScript(script: unknown): string {
  if (!isNode(script) || !Array.isArray(script.statements)) return "…";
  return (script.statements as unknown[]).map((s) => (isNode(s) && typeof s.sourceText === "string" ? s.sourceText : "…")).join("; ");
}

function renderPart(p: Node): string {
  switch (p.type) {
    case "Literal":
      return String(p.value ?? "");
    case "SingleQuoted":
      return `'${String(p.value ?? "")}'`;
    case "Escaped":
      return `\\${String(p.value ?? "")}`;
    case "DoubleQuoted":
      return `"${renderWord({ parts: p.parts })}"`;
    case "Glob":
      return String(p.pattern ?? "");
    case "TildeExpansion":
      return "~" + (typeof p.user === "string" ? p.user : "");
    case "ParameterExpansion":
      return p.operation ? `\${${String(p.parameter)}…}` : `$${String(p.parameter)}`;
    case "CommandSubstitution":
      return `$(${renderScript(p.body)})`;
    case "ProcessSubstitution":
      return `${p.direction === "output" ? ">" : "<"}(${renderScript(p.body)})`;
    case "ArithmeticExpansion":
      return `$((${isNode(p.expression) && typeof p.expression.originalText === "string" ? p.expression.originalText : "…"}))`;
    case "BraceExpansion":
      return "{…}";
    default:
      return "…";
  }
}

function renderRedirection(r: Node): string {
  const fd = typeof r.fd === "number" ? String(r.fd) : "";
  const target = isNode(r.target) && r.target.type === "HereDoc" ? String(r.target.delimiter ?? "") : renderWord(r.target);
  return `${fd}${String(r.operator)}${target}`;
}

function renderSimple(cmd: Node): string {
  const parts: string[] = [];
  if (Array.isArray(cmd.assignments)) {
    for (const a of cmd.assignments as unknown[]) if (isNode(a)) parts.push(`${String(a.name)}=${a.value ? renderWord(a.value) : "(…)"}`);
  }
  if (cmd.name) parts.push(renderWord(cmd.name));
  if (Array.isArray(cmd.args)) for (const a of cmd.args as unknown[]) parts.push(renderWord(a));
  if (Array.isArray(cmd.redirections)) for (const r of cmd.redirections as unknown[]) if (isNode(r)) parts.push(renderRedirection(r));
  return parts.join(" ");
}

// ---- the walk -------------------------------------------------------------------------------

const OUTPUT_OPERATORS = new Set([">", ">>", ">|", "&>", "&>>", "<>", ">&"]);

/** String fields that hold data or already-parsed code; any other string field holding `$(`
 * is command text the AST kept raw. */
const DATA_FIELDS = new Set(["type", "value", "pattern", "sourceText", "originalText", "delimiter", "operator", "name", "variable", "terminator", "direction", "user", "startStr", "endStr", "token", "message"]);

class Checker {
  private readonly cache = new Map<string, CommandFinding | null>();

  constructor(
    private readonly raw: Parser,
    private readonly trimmed: Parser,
  ) {}

  check(command: string): CommandFinding | undefined {
    if (typeof command !== "string") return { command: String(command), reason: "the command is not text" };
    const hit = this.cache.get(command);
    if (hit !== undefined) return hit ?? undefined;
    let result: CommandFinding | undefined;
    try {
      result = this.checkSource(command, 0);
    } catch (e) {
      result = { command, reason: `the command could not be checked (${errorText(e)})` };
    }
    if (this.cache.size >= 500) this.cache.delete(this.cache.keys().next().value as string);
    this.cache.set(command, result ?? null);
    return result;
  }

  checkSource(source: string, depth: number): CommandFinding | undefined {
    if (depth > MAX_DEPTH) return { command: source, reason: "commands are nested too deeply to check" };
    if (source.length > MAX_COMMAND_CHARS) return { command: source.slice(0, 200) + "…", reason: "the command is too long to check" };
    if (source.trim() === "") return undefined;
    const forms: Parser[] = [this.raw];
    // Trimming only changes lines that start with blanks.
    if (/(^|\n)[ \t]/.test(source)) forms.push(this.trimmed);
    for (const parse of forms) {
      const r = parse(source);
      if (!r.ok) return { command: source, reason: `the command could not be parsed (${r.error})` };
      const f = this.walk(r.ast, { depth, statement: source });
      if (f) return f;
    }
    return undefined;
  }

  private ruleContext(depth: number): RuleContext {
    return { depth, checkSource: (s, d) => this.checkSource(s, d) };
  }

  private walk(node: unknown, cx: { depth: number; statement: string }): CommandFinding | undefined {
    if (Array.isArray(node)) {
      for (const child of node) {
        const f = this.walk(child, cx);
        if (f) return f;
      }
      return undefined;
    }
    if (!isNode(node)) return undefined;
    switch (node.type) {
      case "Statement":
        if (typeof node.sourceText === "string" && node.sourceText) cx = { ...cx, statement: node.sourceText };
        break;
      case "SimpleCommand": {
        const f = this.simpleCommand(node, cx.depth, cx.statement);
        if (f) return f;
        break;
      }
      case "FunctionDef":
        return { command: cx.statement, reason: `defining a shell function (${String(node.name)}) is not allowed` };
      case "Redirection": {
        const f = this.redirection(node, cx.statement);
        if (f) return f;
        break;
      }
      case "Assignment": {
        const f = this.assignment(node, cx.statement);
        if (f) return f;
        break;
      }
      case "ArithCommandSubst": {
        const f = this.checkSource(String(node.command ?? ""), cx.depth + 1);
        if (f) return f;
        break;
      }
      case "ParameterExpansion":
        if (isNode(node.operation) && node.operation.type === "Transform" && node.operation.operator === "P") {
          return { command: cx.statement, reason: "${…@P} prompt expansion can run commands" };
        }
        break;
      case "CondBinary":
        if (typeof node.operator === "string" && /^-(eq|ne|lt|le|gt|ge)$/.test(node.operator)) {
          for (const side of [node.left, node.right]) {
            if (isNode(side) && hasCommandText(wordArg(side).text) && !wordArg(side).dynamic) {
              return { command: cx.statement, reason: "[[ … ]] arithmetic would evaluate the command text in its operands" };
            }
          }
        }
        break;
      default:
        break;
    }
    for (const [key, value] of Object.entries(node)) {
      if (typeof value === "string") {
        if (!DATA_FIELDS.has(key) && node.type !== "ArithCommandSubst" && hasCommandText(value)) {
          return { command: cx.statement, reason: "command text inside an expansion cannot be checked" };
        }
        if (key === "parameter" && hasCommandText(value)) {
          return { command: cx.statement, reason: "a command in an array subscript cannot be checked" };
        }
        continue;
      }
      if (typeof value === "object" && value !== null) {
        const f = this.walk(value, cx);
        if (f) return f;
      }
    }
    return undefined;
  }

  private simpleCommand(node: Node, depth: number, statement: string): CommandFinding | undefined {
    if (!node.name) return undefined; // assignments and redirections only; the walk checks them
    const text = renderSimple(node);
    const name = staticName(node.name);
    if (name === undefined) return { command: text, reason: "the command name is computed at run time" };
    // just-bash's parser keeps an array literal among the arguments (`declare -a m=($(cmd))`)
    // as flat text and drops what is nested in it: refuse when the source has a substitution.
    if (Array.isArray(node.args) && hasCommandText(statement)) {
      for (const a of node.args as unknown[]) {
        const first = isNode(a) && Array.isArray(a.parts) ? (a.parts as unknown[])[0] : undefined;
        if (isNode(first) && first.type === "Literal" && /^[A-Za-z_][A-Za-z0-9_]*(\[[^\]]*\])?\+?=\(/.test(String(first.value))) {
          return { command: statement, reason: "a substitution in an array literal cannot be checked" };
        }
      }
    }
    const args = Array.isArray(node.args) ? (node.args as unknown[]).map(wordArg) : [];
    return classify({ name, args, text }, { ...this.ruleContext(depth), statement });
  }

  private redirection(node: Node, statement: string): CommandFinding | undefined {
    const op = String(node.operator);
    if (!OUTPUT_OPERATORS.has(op)) return undefined;
    const target = wordArg(node.target);
    if (op === ">&" && !target.dynamic && /^(\d+-?|-)$/.test(target.text)) return undefined; // fd dup / close
    if (!target.dynamic && HARMLESS_OUTPUT_TARGETS.has(target.text)) return undefined;
    const shown = target.dynamic ? renderWord(node.target) : target.text;
    return { command: statement, reason: `output redirection to ${shown || "a file"}` };
  }

  private assignment(node: Node, statement: string): CommandFinding | undefined {
    const name = String(node.name ?? "");
    const base = name.replace(/\[.*$/, "");
    if (isDangerousVariable(base)) return { command: statement, reason: `setting ${base} can make later commands run other programs` };
    if (hasCommandText(name)) return { command: statement, reason: "a command in an array subscript cannot be checked" };
    const values = [node.value, ...(Array.isArray(node.array) ? (node.array as unknown[]) : [])];
    for (const v of values) {
      if (!v) continue;
      const a = wordArg(v);
      if (!a.dynamic && hasCommandText(a.text)) return { command: statement, reason: `${base} would hold command text that arithmetic could run` };
    }
    return undefined;
  }
}

/**
 * A guard over a just-bash module (the Node entry or `just-bash/browser`). Throws when neither
 * parse path works.
 */
export function createCommandGuard(justBash: JustBashModuleLike): CommandGuard {
  const trimmed = trimmedParser(justBash);
  const capture = rawParser(justBash);
  // The browser capture only knows that parsing failed; the trimmed parse usually says why.
  const raw: Parser = (source) => {
    const r = capture(source);
    if (r.ok || typeof justBash.parse === "function") return r;
    const t = trimmed(source);
    return { ok: false, error: t.ok ? r.error : t.error };
  };
  const probe = raw("true");
  if (!probe.ok) throw new Error(`just-bash parser unavailable: ${probe.error}`);
  const checker = new Checker(raw, trimmed);
  return (command) => checker.check(command);
}

// ---- the shared instance --------------------------------------------------------------------

let active: CommandGuard | null = null;
let preparing: Promise<void> | null = null;

/** Load just-bash and make the guard ready (idempotent; cheap after the first call). */
export function prepareCommandGuard(): Promise<void> {
  if (active) return Promise.resolve();
  preparing ??= import("just-bash")
    .then((jb) => {
      active = createCommandGuard(jb as unknown as JustBashModuleLike);
    })
    .catch((err: unknown) => {
      preparing = null;
      throw err;
    });
  return preparing;
}

export function isCommandGuardReady(): boolean {
  return active !== null;
}

/**
 * Why `command` could change files, or undefined when it only reads. Until the parser is ready
 * (`prepareCommandGuard()`), every command is refused with GUARD_LOADING_REASON.
 */
export function findFileEditingCommand(command: string): CommandFinding | undefined {
  if (!active) {
    void prepareCommandGuard().catch(() => undefined);
    return { command, reason: GUARD_LOADING_REASON };
  }
  return active(command);
}
