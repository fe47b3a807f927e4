/**
 * Output shown as the program produces it. A command line that is one `python3 …` and nothing
 * else (no pipe, redirection, list or substitution, so its output can only go to the caller)
 * gets a live sink: the exec puts a token for it in the environment, the python3 command finds
 * its sink by that token (two execs can run at once on one shell), and what it delivers there is
 * not repeated in the exec's result. Any other command line is collected and returned at the end.
 */
export const LIVE_OUTPUT_VAR = "TABULA_LIVE_OUTPUT";

export type LiveSink = (stream: "stdout" | "stderr", text: string) => void;

export class LiveOutputs {
  private readonly sinks = new Map<string, LiveSink>();
  private next = 1;

  /** Register a sink for one exec; returns its token. */
  open(sink: LiveSink): string {
    const token = `live-${this.next++}`;
    this.sinks.set(token, sink);
    return token;
  }

  /** The exec is over: output after this is dropped (the caller has moved on). */
  close(token: string): void {
    this.sinks.delete(token);
  }

  /** A sink that stays valid only while its exec is open. */
  get(token: string | undefined): LiveSink | undefined {
    if (token === undefined || !this.sinks.has(token)) return undefined;
    return (stream, text) => this.sinks.get(token)?.(stream, text);
  }
}

/**
 * A program's environment and its live sink: the shell's exported variables without the token,
 * which is the shell's business, not the program's.
 */
export function programEnvironment(
  ctx: { exportedEnv?: Record<string, string>; env: Map<string, string> },
  live: LiveOutputs | undefined,
): { env: Record<string, string>; live: LiveSink | undefined } {
  const env: Record<string, string> = { ...(ctx.exportedEnv ?? Object.fromEntries(ctx.env)) };
  const sink = live?.get(env[LIVE_OUTPUT_VAR] ?? ctx.env.get(LIVE_OUTPUT_VAR));
  delete env[LIVE_OUTPUT_VAR];
  return { env, live: sink };
}

/**
 * Is `line` a single invocation of one of `names`: no pipe, redirection, list, subshell or
 * substitution outside quotes, and none (`$`, backquote) inside double quotes? When in doubt: no,
 * and the output is simply collected.
 */
export function isLoneCommand(line: string, names: readonly string[]): boolean {
  const m = /^\s*([A-Za-z0-9_.-]+)(?=\s|$)/.exec(line);
  if (!m || !names.includes(m[1]!)) return false;
  let quote: "'" | '"' | null = null;
  for (let i = m[0].length; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
    } else if (quote === '"') {
      if (c === "\\") i++;
      else if (c === '"') quote = null;
      else if (c === "$" || c === "`") return false;
    } else if (c === "\\") i++;
    else if (c === "'" || c === '"') quote = c;
    else if ("|&;<>()`${}\n".includes(c)) return false;
  }
  return quote === null;
}
