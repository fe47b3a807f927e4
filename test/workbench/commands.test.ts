import { describe, expect, it, vi } from "vitest";
import { CommandRegistry, commandLabel, type Command, type CommandContext } from "../../lib/workbench/commands";
import { matchesKeybinding, parseKeybinding, type KeyLike } from "../../lib/workbench/keybinding";
import { RecentList } from "../../lib/workbench/recent";

const ctx: CommandContext = { ask: async () => undefined, pick: async () => undefined };
const key = (over: Partial<KeyLike>): KeyLike => ({ key: "", ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...over });

function command(id: string, title: string, category = "Test", more: Partial<Command> = {}): Command {
  return { id, title, category, run: () => {}, ...more };
}

describe("keybindings", () => {
  it("parse modifiers and the key", () => {
    expect(parseKeybinding("Ctrl+Shift+P")).toMatchObject({ mod: true, shift: true, alt: false, key: "p" });
    expect(parseKeybinding("F1")).toMatchObject({ mod: false, shift: false, key: "f1" });
    expect(parseKeybinding("Ctrl++")).toMatchObject({ mod: true, key: "+" });
    expect(() => parseKeybinding("Hyper+P")).toThrow(/unknown modifier "Hyper"/);
    expect(() => parseKeybinding("")).toThrow(/names no key/);
  });

  it("match Ctrl or Cmd, and exactly the modifiers written", () => {
    const b = parseKeybinding("Ctrl+Shift+P");
    expect(matchesKeybinding(b, key({ key: "P", ctrlKey: true, shiftKey: true }))).toBe(true);
    expect(matchesKeybinding(b, key({ key: "P", metaKey: true, shiftKey: true }))).toBe(true);
    expect(matchesKeybinding(b, key({ key: "p", ctrlKey: true }))).toBe(false);
    expect(matchesKeybinding(b, key({ key: "P", ctrlKey: true, shiftKey: true, altKey: true }))).toBe(false);
    expect(matchesKeybinding(parseKeybinding("Ctrl+P"), key({ key: "p", ctrlKey: true, shiftKey: true }))).toBe(false);
  });

  it("match by physical key where the character depends on the layout", () => {
    expect(matchesKeybinding(parseKeybinding("Ctrl+`"), key({ key: "Dead", code: "Backquote", ctrlKey: true }))).toBe(true);
    expect(matchesKeybinding(parseKeybinding("Ctrl+P"), key({ key: "π", code: "KeyP", ctrlKey: true }))).toBe(true);
    expect(matchesKeybinding(parseKeybinding("F1"), key({ key: "F1", code: "F1" }))).toBe(true);
  });
});

describe("command registry", () => {
  it("lists the enabled commands by label and hides the disabled ones", () => {
    const r = new CommandRegistry();
    let canStop = false;
    r.register(command("b", "Toggle Terminal", "Terminal"), command("a", "New File…", "File"), command("s", "Stop", "Agent", { enabled: () => canStop }));
    expect(r.available().map(commandLabel)).toEqual(["File: New File…", "Terminal: Toggle Terminal"]);
    canStop = true;
    expect(r.available().map(commandLabel)).toEqual(["Agent: Stop", "File: New File…", "Terminal: Toggle Terminal"]);
  });

  it("removing a registration removes only what it added, not a newer command of the same id", () => {
    const r = new CommandRegistry();
    const first = r.register(command("x", "Old"));
    const second = r.register(command("x", "New"));
    first();
    expect(r.get("x")?.title).toBe("New");
    second();
    expect(r.get("x")).toBeUndefined();
  });

  it("tells subscribers when commands come and go", () => {
    const r = new CommandRegistry();
    const listener = vi.fn();
    r.subscribe(listener);
    const off = r.register(command("x", "X"));
    off();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("refuses a command without a title and a keybinding it cannot read", () => {
    const r = new CommandRegistry();
    expect(() => r.register(command("x", ""))).toThrow(/needs an id, a title and a category/);
    expect(() => r.register(command("y", "Y", "T", { keys: ["Super+Y"] }))).toThrow(/unknown modifier/);
  });

  it("runs by id, remembers it as recent, and refuses unknown or disabled commands", async () => {
    const saved: string[] = [];
    const r = new CommandRegistry({ onRecentChange: (list) => saved.push(list.serialize()) });
    const run = vi.fn();
    r.register(command("go", "Go", "T", { run }), command("off", "Off", "T", { enabled: () => false }));
    await r.run("go", ctx);
    expect(run).toHaveBeenCalledWith(ctx);
    expect(r.recent.list()).toEqual(["go"]);
    expect(saved).toEqual(['["go"]']);
    r.register(command("palette", "Show All Commands", "View", { remember: false }));
    await r.run("palette", ctx);
    expect(r.recent.list()).toEqual(["go"]);
    await expect(r.run("nope", ctx)).rejects.toThrow(/no command "nope"/);
    await expect(r.run("off", ctx)).rejects.toThrow(/"T: Off" is not available now/);
  });

  it("finds the enabled command bound to a key", () => {
    const r = new CommandRegistry();
    let on = true;
    r.register(command("palette", "Show All Commands", "View", { keys: ["Ctrl+Shift+P", "F1"] }), command("find", "Find in Files", "Search", { keys: ["Ctrl+Shift+F"], enabled: () => on }));
    expect(r.forKey(key({ key: "F1" }))?.id).toBe("palette");
    expect(r.forKey(key({ key: "P", ctrlKey: true, shiftKey: true }))?.id).toBe("palette");
    expect(r.forKey(key({ key: "F", ctrlKey: true, shiftKey: true }))?.id).toBe("find");
    on = false;
    expect(r.forKey(key({ key: "F", ctrlKey: true, shiftKey: true }))).toBeUndefined();
    expect(r.forKey(key({ key: "q", ctrlKey: true }))).toBeUndefined();
  });

  it("fuzzy-filters by label, and lists recently run commands first for an empty query", async () => {
    const r = new CommandRegistry({ recent: new RecentList(["term"]) });
    r.register(command("new", "New File…", "File"), command("term", "Toggle Terminal", "Terminal"), command("find", "Find in Files", "Search"), command("agent", "New Session", "Agent"));
    expect(r.search("").map((e) => e.command.id)).toEqual(["term", "agent", "new", "find"]);
    expect(r.search("")[0].recent).toBe(true);
    expect(r.search("tgterm")[0].command.id).toBe("term");
    expect(r.search("newfile").map((e) => e.command.id)).toEqual(["new"]);
    expect(r.search("zzz")).toEqual([]);
    await r.run("find", ctx);
    expect(r.search("").map((e) => e.command.id).slice(0, 2)).toEqual(["find", "term"]);
  });

  it("recent use lifts a command among similar matches", async () => {
    const r = new CommandRegistry();
    r.register(command("plan", "Switch to Plan Mode", "Agent"), command("act", "Switch to Act Mode", "Agent"));
    const before = r.search("switch").map((e) => e.command.id);
    expect(before).toEqual(["act", "plan"]);
    await r.run("plan", ctx);
    expect(r.search("switch")[0].command.id).toBe("plan");
  });
});

describe("recent list", () => {
  it("keeps the most recent first, capped, and survives corrupt storage", () => {
    const l = new RecentList(["a", "b", "a"], 3);
    expect(l.list()).toEqual(["a", "b"]);
    l.touch("c");
    l.touch("b");
    l.touch("d");
    expect(l.list()).toEqual(["d", "b", "c"]);
    l.rename("b", "B");
    expect(l.list()).toEqual(["d", "B", "c"]);
    expect(RecentList.parse(l.serialize()).list()).toEqual(["d", "B", "c"]);
    expect(RecentList.parse("{not json").list()).toEqual([]);
    expect(RecentList.parse('{"a":1}').list()).toEqual([]);
    expect(RecentList.parse(null).list()).toEqual([]);
  });
});
