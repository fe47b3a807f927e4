import { applyPatch, parsePatch, type StructuredPatch } from "diff";
import { z } from "zod";
import { defineTool, errorResult, type ToolContext, type ToolPlan, type ToolResult } from "./define";
import { fsErrorMessage, plural, previewFile, readTextFile, resolvePath } from "./util";

const description = `Apply a patch in unified diff format (the output of "git diff" or "diff -u") to one or more files.

- Paths in the "---"/"+++" headers are relative to the workspace root; "a/" and "b/" prefixes are accepted. Use /dev/null as the old file to create a file and as the new file to delete one.
- Each hunk needs its "@@ -l,s +l,s @@" header and at least 3 lines of unchanged context, copied exactly from the current file.
- All or nothing: if any hunk of any file does not apply, nothing is written and the result names the file and the hunk.
- For a small change to one file, the editor tool's str_replace is usually simpler.`;

const inputSchema = z.object({
  patch: z.string().min(1).describe("The unified diff to apply"),
});

export type ApplyPatchInput = z.infer<typeof inputSchema>;

type FileChange = { path: string; before: string | null; after: string | null };
type PatchState = { changes: FileChange[] };

const MAX_BYTES = 5 * 1024 * 1024;

export const applyPatchTool = defineTool<ApplyPatchInput, PatchState>({
  name: "apply_patch",
  description,
  inputSchema,
  effects: ["file-write", "file-delete"],
  approval: "edit",
  plan: planPatch,
  async execute(input, ctx, plan): Promise<ToolResult> {
    let state = plan?.state;
    if (!state) {
      const planned = await planPatch(input, ctx);
      if ("output" in planned) return planned;
      state = planned.state;
    }
    // Nothing may have changed under us since the preview (the user edits while approving).
    for (const c of state.changes) {
      const now = await readTextFile(ctx.wsfs, c.path, MAX_BYTES);
      const current = now.ok ? now.text : null;
      if (current !== c.before) {
        return errorResult(`${c.path} changed after the patch was proposed, so nothing was applied. Read the file again and regenerate the patch.`);
      }
    }
    const done: FileChange[] = [];
    try {
      for (const c of state.changes) {
        if (c.after === null) await ctx.wsfs.remove(c.path, { origin: ctx.origin });
        else await ctx.wsfs.writeFile(c.path, c.after, { origin: ctx.origin });
        done.push(c);
      }
    } catch (err) {
      // All or nothing: put back what was already written.
      const failed = state.changes[done.length]!;
      const rollback: string[] = [];
      for (const c of done.reverse()) {
        try {
          if (c.before === null) await ctx.wsfs.remove(c.path, { origin: ctx.origin });
          else await ctx.wsfs.writeFile(c.path, c.before, { origin: ctx.origin });
        } catch {
          rollback.push(c.path);
        }
      }
      const tail = rollback.length ? ` Could not roll back: ${rollback.join(", ")}.` : " Files already written were restored; nothing changed.";
      return errorResult(`Writing ${fsErrorMessage(err, failed.path)}.${tail}`);
    }
    const previews = state.changes.map((c) => previewFile(c.path, c.before, c.after));
    const added = previews.reduce((n, p) => n + p.added, 0);
    const removed = previews.reduce((n, p) => n + p.removed, 0);
    const lines = previews.map((p) => `${p.change === "create" ? "created" : p.change === "delete" ? "deleted" : "modified"} ${p.path} (+${p.added} −${p.removed})`);
    return {
      output: `Patch applied to ${plural(previews.length, "file")}:\n${lines.join("\n")}`,
      summary: previews.length === 1 ? `Patched ${previews[0]!.path} (+${added} −${removed})` : `Patched ${plural(previews.length, "file")} (+${added} −${removed})`,
      data: { files: previews },
    };
  },
});

async function planPatch(input: ApplyPatchInput, ctx: ToolContext): Promise<ToolPlan<PatchState> | ToolResult> {
  const text = input.patch.replace(/^\uFEFF/, "");
  if (/^\s*\*\*\* Begin Patch/.test(text)) {
    return errorResult(`This tool takes a unified diff ("--- a/path", "+++ b/path", "@@ -l,s +l,s @@" hunks), not the "*** Begin Patch" format. Rewrite the patch as a unified diff.`);
  }
  if (ctx.readOnly) return errorResult(`Cannot apply a patch: the workspace is read-only in ${ctx.mode} mode`);
  let patches: StructuredPatch[];
  try {
    patches = parsePatch(text.endsWith("\n") ? text : text + "\n");
  } catch (err) {
    return errorResult(`The patch could not be parsed: ${(err as Error).message}. Send a unified diff with "---"/"+++" headers and "@@" hunk headers.`);
  }
  patches = patches.filter((p) => p.hunks.length > 0 || p.isRename || p.isDelete || p.isCreate || p.oldFileName || p.newFileName);
  if (patches.length === 0 || patches.every((p) => p.hunks.length === 0 && !p.isRename && !p.isDelete)) {
    return errorResult(`The patch contains no file changes. It needs "--- a/path" and "+++ b/path" headers followed by "@@ -l,s +l,s @@" hunks.`);
  }

  // A virtual view of the files the patch touches, so several sections for one file chain.
  const virtual = new Map<string, string | null>();
  const original = new Map<string, string | null>();
  const load = async (path: string): Promise<string | null | ToolResult> => {
    if (virtual.has(path)) return virtual.get(path)!;
    const r = await readTextFile(ctx.wsfs, path, MAX_BYTES);
    if (!r.ok && r.reason !== "missing") return errorResult(`Cannot patch ${path}: ${r.message}`);
    const v = r.ok ? r.text : null;
    virtual.set(path, v);
    original.set(path, v);
    return v;
  };

  for (const [i, p] of patches.entries()) {
    const label = patches.length > 1 ? ` (file ${i + 1} of the patch)` : "";
    const oldName = cleanName(p.oldFileName, "a/");
    const newName = cleanName(p.newFileName, "b/");
    const creates = p.isCreate || oldName === null;
    const deletes = p.isDelete || newName === null;
    const target = deletes ? oldName : newName;
    const source = creates ? null : oldName;
    if (!target && !source) return errorResult(`A file section of the patch${label} has no usable file names in its ---/+++ headers.`);
    let srcPath: string | null = null;
    let dstPath: string | null = null;
    try {
      srcPath = source === null ? null : resolvePath(ctx.wsfs, source);
      dstPath = deletes ? null : resolvePath(ctx.wsfs, target!);
    } catch (err) {
      return errorResult(fsErrorMessage(err, (source ?? target)!));
    }

    let before: string | null = null;
    if (srcPath !== null) {
      const v = await load(srcPath);
      if (typeof v === "object" && v !== null) return v;
      if (v === null) {
        return errorResult(`The patch modifies ${srcPath}${label}, but that file does not exist. To create a file, use /dev/null as the old file name.`);
      }
      before = v;
    } else if (dstPath !== null) {
      const v = await load(dstPath);
      if (typeof v === "object" && v !== null) return v;
      if (v !== null) return errorResult(`The patch creates ${dstPath}${label}, but that file already exists. Patch it as a modification instead.`);
    }

    const result = applyPatch(before ?? "", p);
    if (result === false) return errorResult(explainFailure(before ?? "", p, srcPath ?? dstPath ?? "?", label));
    if (deletes) {
      if (result.trim() !== "") {
        return errorResult(`The patch deletes ${srcPath}${label}, but its "-" lines do not cover the whole file, so nothing was applied.`);
      }
      virtual.set(srcPath!, null);
    } else {
      if (srcPath !== null && srcPath !== dstPath) {
        virtual.set(srcPath, null); // rename
        const existing = await load(dstPath!);
        if (typeof existing === "object" && existing !== null) return existing;
        if (existing !== null) return errorResult(`The patch renames ${srcPath} to ${dstPath}${label}, but ${dstPath} already exists.`);
      }
      virtual.set(dstPath!, result);
    }
  }

  const changes: FileChange[] = [];
  for (const [path, after] of virtual) {
    const before = original.get(path) ?? null;
    if (before === after) continue;
    changes.push({ path, before, after });
  }
  if (changes.length === 0) return errorResult(`Applying the patch would change nothing: the files already have this content.`);
  return { preview: { kind: "diff", files: changes.map((c) => previewFile(c.path, c.before, c.after)) }, state: { changes } };
}

function cleanName(name: string | undefined, prefix: string): string | null {
  if (name === undefined || name === "" || name === "/dev/null") return null;
  let n = name.trim();
  if (n.startsWith('"') && n.endsWith('"')) n = n.slice(1, -1);
  if (n.startsWith(prefix)) n = n.slice(prefix.length);
  return n;
}

/** Find the first hunk that does not fit and say why. */
function explainFailure(source: string, p: StructuredPatch, path: string, label: string): string {
  let current = source;
  for (const [k, h] of p.hunks.entries()) {
    const next = applyPatch(current, { ...p, hunks: [h] });
    if (next === false) {
      const fileLines = new Set(current.split(/\r?\n/));
      const expected = h.lines.filter((l) => l.startsWith(" ") || l.startsWith("-")).map((l) => l.slice(1));
      const missing = expected.find((l) => !fileLines.has(l));
      const hint = missing !== undefined ? ` The line ${JSON.stringify(missing)} is not in the file.` : " Its lines exist in the file, but not together in this order.";
      return (
        `Hunk ${k + 1} of ${p.hunks.length} for ${path}${label} (@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@) does not apply: ` +
        `its context and "-" lines do not match the file.${hint} Nothing was written. Read the file again and regenerate the patch from its current content.`
      );
    }
    current = next;
  }
  return `The patch for ${path}${label} does not apply to the current file content (hunks out of order or overlapping). Nothing was written.`;
}
