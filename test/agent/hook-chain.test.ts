/** HookChain (several registries as one chain), errors that end the run, hooks without a time limit. */
import { describe, expect, it } from "vitest";
import { HookChain, HookRegistry, SESSION_POLICY_PRIORITY } from "../../lib/agent/hooks";

describe("HookChain", () => {
  it("runs several registries as one chain: by priority, then registry, then registration; follows later changes", async () => {
    const shared = new HookRegistry();
    const own = new HookRegistry();
    const chain = new HookChain([shared, own]);
    const log: string[] = [];
    const hook = (name: string) => ({ beforeRun: () => void log.push(name) });
    own.register({ name: "own-late", hooks: hook("own-late"), priority: SESSION_POLICY_PRIORITY });
    shared.register({ name: "shared-a", hooks: hook("shared-a") });
    own.register({ name: "own-a", hooks: hook("own-a") });
    const off = shared.register({ name: "shared-first", hooks: hook("shared-first"), priority: -5 });
    const run = () => chain.runChain("beforeRun", () => ({}), () => false, () => undefined);
    await run();
    expect(log).toEqual(["shared-first", "shared-a", "own-a", "own-late"]);
    log.length = 0;
    off();
    shared.register({ name: "shared-b", hooks: hook("shared-b") });
    await run();
    expect(log).toEqual(["shared-a", "shared-b", "own-a", "own-late"]);
  });

  it("a propagateErrors hook's error reaches the caller; another hook's is reported and the chain goes on", async () => {
    const reg = new HookRegistry();
    const failures: string[] = [];
    reg.register({ name: "plugin", hooks: { beforeRun: () => { throw new Error("plugin broke"); } } });
    reg.register({ name: "policy", propagateErrors: true, hooks: { beforeRun: () => { throw new Error("budget reached"); } } });
    await expect(reg.runChain("beforeRun", () => ({}), () => false, (f) => void failures.push(`${f.hook}: ${f.message}`))).rejects.toThrow("budget reached");
    expect(failures).toEqual(["plugin: plugin broke"]);
  });

  it("timeoutMs Infinity lets a hook wait (for the user) past the default limit", async () => {
    const reg = new HookRegistry();
    let release!: () => void;
    const waited = new Promise<void>((r) => (release = r));
    reg.register({ name: "waits", timeoutMs: Infinity, hooks: { beforeRun: async () => { await waited; return { stop: true }; } } });
    const failures: unknown[] = [];
    let stopped = false;
    const done = reg.runChain<unknown, { stop?: boolean }>("beforeRun", () => ({}), (r) => (stopped = !!r?.stop), (f) => void failures.push(f));
    setTimeout(release, 20);
    await done;
    expect(stopped).toBe(true);
    expect(failures).toEqual([]);
  });
});

