/** MCP servers the user adds: the token is kept apart from the list and only joins the connection. */
import { describe, expect, it } from "vitest";
import { McpServerStore } from "../../lib/plugins/user-plugins";

function memoryStorage() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v), raw: m };
}

describe("McpServerStore", () => {
  it("keeps a server's token under its own key, never in the list, and sends it as a bearer header", () => {
    const s = memoryStorage();
    const store = new McpServerStore(s);
    store.add("gh", "https://mcp.example.test/mcp", "  tok-123  ");
    store.add("plain", "http://127.0.0.1:9000/mcp");
    expect(store.list()).toEqual([
      { name: "gh", url: "https://mcp.example.test/mcp" },
      { name: "plain", url: "http://127.0.0.1:9000/mcp" },
    ]);
    expect(s.raw.get(McpServerStore.KEY)).not.toContain("tok-123");
    expect(store.hasToken("gh")).toBe(true);
    expect(store.hasToken("plain")).toBe(false);
    expect(store.connections()).toEqual([
      { name: "gh", url: "https://mcp.example.test/mcp", headers: { authorization: "Bearer tok-123" } },
      { name: "plain", url: "http://127.0.0.1:9000/mcp" },
    ]);
    // Re-adding without a token drops the old one; removing drops it too.
    store.add("gh", "https://mcp.example.test/mcp");
    expect(store.hasToken("gh")).toBe(false);
    store.add("gh", "https://mcp.example.test/mcp", "tok-456");
    store.remove("gh");
    expect(s.raw.get(McpServerStore.SECRETS_KEY)).not.toContain("tok-456");
    expect(store.list().map((x) => x.name)).toEqual(["plain"]);
  });

  it("refuses credentials in the URL, multi-line tokens, bad names and non-http URLs", () => {
    const store = new McpServerStore(memoryStorage());
    expect(() => store.add("x", "https://user:pw@mcp.example.test/mcp")).toThrow(/token field/);
    expect(() => store.add("x", "https://mcp.example.test/mcp", "a\nb")).toThrow(/one line/);
    expect(() => store.add("bad name!", "https://mcp.example.test/mcp")).toThrow(/letters, digits/);
    expect(() => store.add("x", "file:///etc/passwd")).toThrow(/http/);
    expect(store.list()).toEqual([]);
  });

  it("survives a corrupt store", () => {
    const s = memoryStorage();
    s.setItem(McpServerStore.KEY, "{not json");
    s.setItem(McpServerStore.SECRETS_KEY, "[1,2]");
    const store = new McpServerStore(s);
    expect(store.list()).toEqual([]);
    expect(store.connections()).toEqual([]);
  });
});
