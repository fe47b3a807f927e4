/** How deep a task sits in its dependency tree (0: depends on nothing), for indenting the tree. */
export function taskDepths(tasks: readonly { key: string; dependsOn: readonly string[] }[]): Map<string, number> {
  const byKey = new Map(tasks.map((t) => [t.key, t]));
  const depth = new Map<string, number>();
  const visit = (key: string, seen: Set<string>): number => {
    const known = depth.get(key);
    if (known !== undefined) return known;
    const t = byKey.get(key);
    // An unknown key or a cycle was refused by the tool; never recurse forever on one anyway.
    if (!t || seen.has(key)) return 0;
    seen.add(key);
    const d = t.dependsOn.length ? 1 + Math.max(...t.dependsOn.map((k) => visit(k, seen))) : 0;
    depth.set(key, d);
    return d;
  };
  for (const t of tasks) visit(t.key, new Set());
  return depth;
}

/** Milliseconds as minutes and seconds ("30 min", "1 min 30 s", "45 s"). */
export function formatWall(ms: number): string {
  const s = Math.round(ms / 1000);
  const m = Math.floor(s / 60);
  const r = s % 60;
  if (m === 0) return `${r} s`;
  return r ? `${m} min ${r} s` : `${m} min`;
}
