/**
 * A deliberately simple reading of a shell command line for guards: the simple commands it
 * holds (split on ; && || | & newlines, and inside $( ) and backticks) as lists of words with
 * quotes removed. It over-approximates: a guard built on it may refuse a harmless command, never
 * the other way round for the patterns it checks.
 */
export function simpleCommands(line: string): string[][] {
  const out: string[][] = [];
  for (const part of line.split(/;|&&|\|\||\||&|\n|\$\(|\)|`|<\(|>\(/)) {
    const words = part
      .split(/[\s<>]+/)
      .map((w) => w.replace(/^["']+|["']+$/g, "").replace(/["']/g, ""))
      .filter(Boolean);
    if (words.length) out.push(words);
  }
  return out;
}

export function basename(p: string): string {
  return p.slice(p.replace(/\/+$/, "").lastIndexOf("/") + 1);
}
