/**
 * What makes a bench run fail (exit 1) rather than report figures: an `error` anywhere in a
 * module's results (a target that crashed, a native-parity failure), or a module's own
 * `failures` list. Returns one line per failure, with where it was found.
 */
export function benchFailures(results, where = "") {
  const out = [];
  if (results === null || typeof results !== "object") return out;
  if (typeof results.error === "string") out.push(`${where || "(root)"}: ${results.error.split("\n")[0]}`);
  if (Array.isArray(results.failures)) for (const f of results.failures) out.push(`${where || "(root)"}: ${f}`);
  for (const [k, v] of Object.entries(results)) {
    if (k === "error" || k === "failures") continue;
    if (v && typeof v === "object" && !Array.isArray(v)) out.push(...benchFailures(v, where ? `${where}.${k}` : k));
  }
  return out;
}
