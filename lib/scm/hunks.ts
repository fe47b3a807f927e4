/**
 * One file's `git diff` split into hunks, and the patch that carries just one of them: what
 * staging or unstaging a single hunk feeds `git apply --cached [-R]` (as `git add -p` does).
 */
export type Hunk = {
  /** "@@ -12,7 +12,8 @@ function name" as git prints it. */
  header: string;
  /** The hunk's lines, each with its " ", "+", "-" or "\\" prefix. */
  lines: string[];
  added: number;
  removed: number;
};

export type FileDiff = { head: string; hunks: Hunk[] };

/** The first file of a unified diff: its header (diff --git, index, ---, +++) and its hunks. */
export function parseFileDiff(diff: string): FileDiff | null {
  const firstFile = diff.split(/^(?=diff --git )/m).find((s) => s.trim() !== "");
  if (!firstFile) return null;
  const [head, ...parts] = firstFile.split(/^(?=@@ )/m);
  if (!head || parts.length === 0) return null;
  const hunks = parts.map((part) => {
    const all = part.replace(/\n$/, "").split("\n");
    const body = all.slice(1);
    return { header: all[0]!, lines: body, added: body.filter((l) => l.startsWith("+")).length, removed: body.filter((l) => l.startsWith("-")).length };
  });
  return { head, hunks };
}

/** A patch of `file`'s header and its hunk `index` alone (the other hunks' lines are not in it, so they stay as they are). */
export function patchOfHunk(file: FileDiff, index: number): string {
  const h = file.hunks[index];
  if (!h) throw new Error(`There is no hunk ${index + 1} in this diff (it has ${file.hunks.length}).`);
  return `${file.head}${h.header}\n${h.lines.join("\n")}\n`;
}
