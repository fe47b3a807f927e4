/** Workspace paths a built-in tool call names (read_files, editor, list_files, search_codebase, apply_patch). */
export function pathsOfCall(tool: string, input: unknown): { reads: string[]; writes: string[] } {
  const i = (input ?? {}) as Record<string, unknown>;
  const str = (v: unknown) => (typeof v === "string" ? [v] : []);
  switch (tool) {
    case "read_files":
      return { reads: Array.isArray(i.files) ? i.files.flatMap((f) => str((f as { path?: unknown })?.path)) : [], writes: [] };
    case "editor": {
      const p = str(i.path);
      if (i.command === "view") return { reads: p, writes: [] };
      if (i.command === "create") return { reads: [], writes: p };
      return { reads: p, writes: p }; // str_replace / insert read the file to change it
    }
    case "list_files":
    case "search_codebase":
      return { reads: str(i.path), writes: [] };
    case "apply_patch": {
      const paths = new Set<string>();
      for (const m of String(i.patch ?? "").matchAll(/^(?:---|\+\+\+) (?:[ab]\/)?([^\t\n]+)/gm)) if (m[1] !== "/dev/null") paths.add(m[1]!.trim());
      return { reads: [...paths], writes: [...paths] };
    }
    default:
      return { reads: [], writes: [] };
  }
}

/** The command lines of a run_commands call. */
export function commandsOfCall(input: unknown): string[] {
  const c = (input as { commands?: unknown })?.commands;
  return typeof c === "string" ? [c] : Array.isArray(c) ? c.filter((x): x is string => typeof x === "string") : [];
}
