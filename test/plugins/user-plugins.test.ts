/** The user's own plugins, switches and MCP servers, kept in this browser's storage. */
import { describe, expect, it } from "vitest";
import { McpServerStore, PluginSwitches, UserPluginStore } from "../../lib/plugins/user-plugins";
import { memoryStorage } from "./memory-storage";

describe("UserPluginStore", () => {
  it("installs under a cleaned id, replaces a plugin of the same name, removes, and survives a new instance", () => {
    const storage = memoryStorage();
    const store = new UserPluginStore(storage);
    expect(store.list()).toEqual([]);
    expect(store.install("My Plugin!.ts", "v1", 1)).toEqual({ id: "user:My-Plugin-", fileName: "My Plugin!.ts", source: "v1", installedAt: 1 });
    store.install("other.mjs", "o", 2);
    store.install("My Plugin!.ts", "v2", 3);
    const again = new UserPluginStore(storage);
    expect(again.list().map((p) => [p.id, p.source])).toEqual([
      ["user:other", "o"],
      ["user:My-Plugin-", "v2"],
    ]);
    again.remove("user:other");
    expect(store.list().map((p) => p.id)).toEqual(["user:My-Plugin-"]);
    expect(store.install(".js", "x").id).toBe("user:plugin");
  });

  it("refuses a file over 1 MB and keeps what was there; a damaged list reads as empty", () => {
    const storage = memoryStorage();
    const store = new UserPluginStore(storage);
    store.install("a.js", "a");
    expect(() => store.install("huge.js", "x".repeat(1024 * 1024 + 1))).toThrow("huge.js is larger than 1024 KB");
    expect(store.list().map((p) => p.id)).toEqual(["user:a"]);
    storage.setItem("tabula:user-plugins", "{broken");
    expect(store.list()).toEqual([]);
    storage.setItem("tabula:user-plugins", JSON.stringify([{ id: "user:x", source: 5 }, null, { id: "user:y", fileName: "y.js", source: "y", installedAt: 0 }]));
    expect(store.list().map((p) => p.id)).toEqual(["user:y"]);
  });
});

describe("PluginSwitches", () => {
  it("are per workspace", () => {
    const storage = memoryStorage();
    const a = new PluginSwitches(storage, "a");
    const b = new PluginSwitches(storage, "b");
    a.set("workspace:x", false);
    a.set("built-in:env-blocker", true);
    expect(a.all()).toEqual({ "workspace:x": false, "built-in:env-blocker": true });
    expect(b.all()).toEqual({});
  });
});

describe("McpServerStore", () => {
  it("checks names and URLs with a clear error, normalises the URL and replaces by name", () => {
    const store = new McpServerStore(memoryStorage());
    expect(() => store.add("bad name", "http://127.0.0.1/mcp")).toThrow("An MCP server name is 1–40 letters, digits, _ or -");
    expect(() => store.add("x", "not a url")).toThrow('"not a url" is not a URL');
    expect(() => store.add("x", "file:///etc/passwd")).toThrow("An MCP server URL must start with http:// or https://");
    expect(store.list()).toEqual([]);
    store.add(" echo ", "http://127.0.0.1:9/mcp");
    store.add("echo", "https://example.test/mcp");
    expect(store.list()).toEqual([{ name: "echo", url: "https://example.test/mcp" }]);
    store.remove("echo");
    expect(store.list()).toEqual([]);
  });
});
