/**
 * The app's end of a preview (lib/preview/link.ts) against a scripted host page on the other end
 * of a real MessageChannel: files answered from the workspace, and a capture for the agent that
 * waits for the page's load and reports its text and what it logged since the capture began.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { WorkspaceFs } from "../../lib/fs/workspace-fs";
import { PreviewLink } from "../../lib/preview/link";
import type { AppToHost, HostToApp } from "../../lib/preview/protocol";

const dirs: string[] = [];
const ports: MessagePort[] = [];
afterEach(() => {
  dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true }));
  ports.splice(0).forEach((p) => p.close());
});

function setup(onHost: (m: AppToHost, reply: (m: HostToApp) => void) => void) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-preview-link-"));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, "index.html"), "<h1>Hi</h1>");
  const events: string[] = [];
  const link = new PreviewLink(new WorkspaceFs({ fs: fs as never, dir }), {
    onReady: () => events.push("ready"),
    onFailed: (m) => events.push(`failed ${m}`),
    onConsole: (e) => events.push(`console ${e.text}`),
    onLoaded: (p) => events.push(`loaded ${p}`),
  });
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  const reply = (m: HostToApp) => port2.postMessage(m);
  port2.onmessage = (e: MessageEvent) => onHost(e.data as AppToHost, reply);
  link.attach(port1);
  return { link, events, reply };
}

describe("the app's end of a preview", () => {
  it("answers the host's file requests from the workspace", async () => {
    const answered = new Promise<Extract<AppToHost, { type: "file" }>>((resolve) => {
      const { reply } = setup((m) => m.type === "file" && resolve(m));
      reply({ type: "file", id: 7, path: "" });
    });
    const m = await answered;
    expect(m.id).toBe(7);
    expect(m.answer.status).toBe(200);
    expect(new TextDecoder().decode(m.answer.body)).toContain("<h1>Hi</h1>");
  });

  it("captures a page: navigates once ready, waits for its load, and reports what it logged since", async () => {
    const seen: AppToHost[] = [];
    const { link, events, reply } = setup((m, reply) => {
      seen.push(m);
      if (m.type === "navigate") {
        // A load still finishing from before this navigation does not end the capture.
        reply({ type: "loaded", url: "old.html", nav: m.nav - 1 });
        reply({ type: "console", entry: { level: "log", source: "console", text: "the old page, late", at: 0 }, nav: m.nav - 1 });
        reply({ type: "console", entry: { level: "error", source: "error", text: "Uncaught boom", at: 1 }, nav: m.nav });
        setTimeout(() => reply({ type: "loaded", url: m.path.slice(1), nav: m.nav }), 20);
      }
      if (m.type === "read-text") reply({ type: "text", id: m.id, text: "Hello page", title: "T", url: "docs/" });
    });
    const shot = link.capture("docs/");
    // Before the host's service worker is ready nothing is sent.
    await new Promise((r) => setTimeout(r, 30));
    expect(seen).toEqual([]);
    reply({ type: "console", entry: { level: "log", source: "console", text: "before the capture", at: 0 }, nav: 0 });
    reply({ type: "ready" });
    const s = await shot;
    expect(seen.map((m) => m.type)).toEqual(["navigate", "read-text"]);
    expect(seen[0]).toEqual({ type: "navigate", path: "/docs/", nav: 1 });
    expect(s).toEqual({ url: "/docs/", title: "T", text: "Hello page", console: [{ level: "error", source: "error", text: "Uncaught boom", at: 1 }] });
    expect(events).toEqual(["console before the capture", "ready", "loaded old.html", "console the old page, late", "console Uncaught boom", "loaded docs/"]);
  });

  it("a capture stops with the run, stopped before or while it waits", async () => {
    const { link, reply } = setup(() => undefined);
    reply({ type: "ready" });
    await link.ready;
    const ctl = new AbortController();
    const stopped = link.capture(undefined, ctl.signal);
    ctl.abort();
    await expect(stopped).rejects.toThrow("stopped");
    const later = new AbortController();
    const waiting = link.capture("/", later.signal);
    await new Promise((r) => setTimeout(r, 20));
    later.abort();
    await expect(waiting).rejects.toThrow("stopped");
  });
});
