/** Proposals for the orchestration tests: a valid one, and a way to vary it. */
import type { Proposal } from "../../lib/orchestrate";

export const readTools = ["read_files", "list_files", "search_codebase"];

/** Three tasks: two read-only explorers in parallel, a writer after both; the synthesis merges all three. */
export function proposal(over: Partial<Proposal> = {}): Proposal {
  return {
    goal: "Document the API",
    roles: [
      { name: "explorer", brief: "Read code, report facts.", mode: "plan", tools: readTools },
      { name: "writer", brief: "Write the docs.", mode: "act", tools: [...readTools, "editor"] },
      { name: "editor-in-chief", brief: "Merge the reports.", mode: "plan", tools: readTools },
    ],
    tasks: [
      { key: "map-api", title: "Map the API", description: "List the exported functions.", role: "explorer", dependsOn: [], acceptance: "Every export is listed." },
      { key: "map-tests", title: "Map the tests", description: "List what the tests cover.", role: "explorer", dependsOn: [], acceptance: "Every test file is listed." },
      { key: "write-docs", title: "Write docs", description: "Write docs/api.md.", role: "writer", dependsOn: ["map-api", "map-tests"], acceptance: "docs/api.md exists." },
    ],
    synthesis: { role: "editor-in-chief", inputs: ["map-api", "map-tests", "write-docs"], output: "A summary of the documented API." },
    budget: { tokens: 100_000, usd: 1, maxParallel: 2, wallMs: 60_000 },
    ...over,
  };
}
