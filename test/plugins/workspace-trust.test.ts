/** Workspace trust: provenance defaults, the remembered decision, accepted hashes and the review of changes. */
import { describe, expect, it } from "vitest";
import { reviewCode, WorkspaceTrustStore } from "../../lib/plugins/workspace-trust";
import { contentHash, isWorkspaceCodePath, readWorkspaceCode, MAX_CODE_FILE_BYTES } from "../../lib/plugins/workspace-code";
import { declaredByText } from "../../lib/plugins/declared";
import { describeProvenance, trustedByProvenance } from "../../lib/workspaces/provenance";
import { tempWs } from "../agent/helpers";
import { memoryStorage } from "./memory-storage";


const enc = (s: string) => new TextEncoder().encode(s);

describe("provenance", () => {
  it("trusts only what was made here: empty and sample; every import, clone, bundle (fork) and unknown kind is restricted", () => {
    const kinds = ["empty", "sample", "zip", "folder", "clone", "bundle", "fork", "", undefined];
    expect(kinds.map((kind) => trustedByProvenance({ origin: { kind } }))).toEqual([true, true, false, false, false, false, false, false, false]);
    expect(trustedByProvenance(undefined)).toBe(false);
    expect(trustedByProvenance({})).toBe(false);
    expect(describeProvenance({ origin: { kind: "zip", detail: "proj" } })).toBe("imported from a zip (proj)");
    expect(describeProvenance({ origin: { kind: "bundle", detail: "shared link abc" } })).toBe("imported from a bundle (shared link abc)");
    expect(describeProvenance({})).toBe("of unknown origin");
  });
});

describe("WorkspaceTrustStore", () => {
  it("defaults from provenance, remembers the decision per workspace, and revoking forgets what was accepted", () => {
    const storage = memoryStorage();
    const made = new WorkspaceTrustStore(storage, "w1", { trustedByDefault: true });
    const imported = new WorkspaceTrustStore(storage, "w2", { trustedByDefault: false });
    expect(made.get()).toEqual({ decision: "trusted", accepted: {} });
    expect(imported.get()).toEqual({ accepted: {} });
    imported.trust([{ path: ".tabula/plugins/a.js", hash: "h1" }]);
    // Another instance (a reload) reads the same record; w1 is untouched.
    expect(new WorkspaceTrustStore(storage, "w2", { trustedByDefault: false }).get()).toEqual({ decision: "trusted", accepted: { ".tabula/plugins/a.js": "h1" } });
    expect(made.get()).toEqual({ decision: "trusted", accepted: {} });
    imported.accept([{ path: ".tabula/plugins/b.js", change: "added", hash: "h2" }, { path: ".tabula/plugins/a.js", change: "removed" }]);
    expect(imported.get().accepted).toEqual({ ".tabula/plugins/b.js": "h2" });
    imported.restrict();
    expect(imported.get()).toEqual({ decision: "restricted", accepted: {} });
    // Accepting changes does nothing in a restricted workspace.
    imported.accept([{ path: ".tabula/plugins/c.js", change: "added", hash: "h3" }]);
    expect(imported.get()).toEqual({ decision: "restricted", accepted: {} });
    // A workspace made here can be restricted too, and stays so across instances.
    made.restrict();
    expect(new WorkspaceTrustStore(storage, "w1", { trustedByDefault: true }).get().decision).toBe("restricted");
  });

  it("a damaged or forged record falls back to the provenance default, never to more trust", () => {
    const storage = memoryStorage();
    storage.setItem("tabula:workspace-trust:w", "{not json");
    expect(new WorkspaceTrustStore(storage, "w", { trustedByDefault: false }).get()).toEqual({ accepted: {} });
    storage.setItem("tabula:workspace-trust:w", JSON.stringify({ decision: "yes please", accepted: { "x.js": "h" } }));
    expect(new WorkspaceTrustStore(storage, "w", { trustedByDefault: false }).get()).toEqual({ accepted: {} });
    storage.setItem("tabula:workspace-trust:w", JSON.stringify({ decision: "restricted", accepted: { "x.js": "h" } }));
    expect(new WorkspaceTrustStore(storage, "w", { trustedByDefault: true }).get()).toEqual({ decision: "restricted", accepted: {} });
    storage.setItem("tabula:workspace-trust:w", JSON.stringify({ decision: "trusted", accepted: { "x.js": 42, "y.js": "h" } }));
    expect(new WorkspaceTrustStore(storage, "w", { trustedByDefault: false }).get()).toEqual({ decision: "trusted", accepted: { "y.js": "h" } });
  });
});

describe("change detection", () => {
  it("reviewCode: unchanged files run, added / changed / removed ones are listed", () => {
    const f = (path: string, text: string) => ({ path, hash: contentHash(enc(text)), size: text.length, text });
    const files = [f(".tabula/hooks/PreToolUse.js", "same"), f(".tabula/plugins/a.js", "new body"), f(".tabula/plugins/new.js", "x")];
    const accepted = { ".tabula/hooks/PreToolUse.js": contentHash(enc("same")), ".tabula/plugins/a.js": contentHash(enc("old body")), ".tabula/plugins/gone.js": "h" };
    const r = reviewCode(files, accepted);
    expect(r.unchanged.map((x) => x.path)).toEqual([".tabula/hooks/PreToolUse.js"]);
    expect(r.changes).toEqual([
      { path: ".tabula/plugins/a.js", change: "changed", hash: contentHash(enc("new body")) },
      { path: ".tabula/plugins/new.js", change: "added", hash: contentHash(enc("x")) },
      { path: ".tabula/plugins/gone.js", change: "removed" },
    ]);
    // A file with no hash (too many files) never counts as accepted.
    expect(reviewCode([{ path: ".tabula/plugins/z.js", hash: "", size: 0, error: "too many" }], { ".tabula/plugins/z.js": "" }).unchanged).toEqual([]);
  });

  it("readWorkspaceCode reads every file under .tabula/plugins and .tabula/hooks with its sha256, and nothing else", async () => {
    const big = "x".repeat(MAX_CODE_FILE_BYTES + 1);
    const ws = tempWs({ ".tabula/plugins/a.js": "A", ".tabula/plugins/pkg/package.json": "{}", ".tabula/hooks/TaskStart.js": "T", ".tabula/rules.md": "not code", "src/x.js": "no", ".tabula/plugins/big.js": big });
    try {
      const code = await readWorkspaceCode(ws.wsfs);
      expect(code.map((c) => c.path)).toEqual([".tabula/hooks/TaskStart.js", ".tabula/plugins/a.js", ".tabula/plugins/big.js", ".tabula/plugins/pkg/package.json"]);
      // The hash is sha256 of the bytes (checked against node:crypto).
      const { createHash } = await import("node:crypto");
      expect(code[1]).toEqual({ path: ".tabula/plugins/a.js", hash: createHash("sha256").update("A").digest("hex"), size: 1, text: "A" });
      expect(code[2]!.text).toBeUndefined();
      expect(code[2]!.error).toMatch(/larger than 1024 KB/);
      expect(code[2]!.hash).toBe(createHash("sha256").update(big).digest("hex"));
    } finally {
      ws.cleanup();
    }
    expect([".tabula/plugins/x.js", ".tabula/hooks", ".tabula", ".tabula/rules.md", ".tabula/pluginsx/a.js", "src/.tabula/plugins/a.js"].map(isWorkspaceCodePath)).toEqual([true, true, true, false, false, false]);
  });
});

describe("declared capabilities (text scan, never evaluated)", () => {
  it("finds the manifest's capabilities and the register calls; hook files declare their event", () => {
    const src = `export default { name: "p", manifest: { capabilities: ["tools", 'mcp'] }, setup(api) {
      api.registerTool({ name: "shout", description: "x" }); api.registerMcpServer({ name: "remote", url: "http://x" });
    }, hooks: { beforeTool() {} } };`;
    expect(declaredByText(".tabula/plugins/p.js", src)).toEqual({ capabilities: ["tools", "mcp"], registers: ["Tool shout", "McpServer remote", "beforeTool hook"] });
    expect(declaredByText(".tabula/hooks/PostToolUse.js", "anything")).toEqual({ capabilities: ["hooks"], registers: ["PostToolUse hook"] });
    expect(declaredByText(".tabula/hooks/notes.txt", "anything")).toEqual({ capabilities: [], registers: [] });
    expect(declaredByText(".tabula/plugins/big.js", undefined)).toEqual({ capabilities: [], registers: [] });
    // A scan cannot see capabilities built at run time: it says so by finding none.
    expect(declaredByText(".tabula/plugins/q.js", `const c = ["to" + "ols"]; export default { name: "q", manifest: { capabilities: c } };`).capabilities).toEqual([]);
  });
});
