/**
 * Opening a share link that was cut short or altered on the way: every failure, whichever layer
 * notices it, reaches the user as "the link is damaged or incomplete", never as a library's message.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { toBase64Url } from "../../lib/share/links";
import { DamagedLinkError, openSharedPackage } from "../../lib/share/open-link";
import * as engine from "../../lib/checkpoints";
import { nodeFs, tempRepo } from "../checkpoints/helpers";
import { sharePackageOf } from "./share-fixture";

let fragment = "";
const tmp: string[] = [];

beforeAll(async () => {
  fragment = toBase64Url(await sharePackageOf({ "a.txt": "hello\n".repeat(50), "src/b.ts": "export const b = 1;\n" }, tmp));
});
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true });
});

function replayRepo() {
  const dir = tempRepo();
  tmp.push(dir);
  return { fs: nodeFs, dir };
}

const LIBRARY_WORDS = /isomorphic-git|pako|file an issue|incorrect|undefined|TypeError|invalid (?:block|distance|code)/i;

async function openFails(frag: string): Promise<DamagedLinkError | undefined> {
  try {
    await openSharedPackage({ fragment: frag }, engine, replayRepo());
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(DamagedLinkError);
    expect((e as Error).message).toMatch(/^This link is damaged or incomplete/);
    expect((e as Error).message).not.toMatch(LIBRARY_WORDS);
    return e as DamagedLinkError;
  }
}

/** Flip one base64 character at `at` into another valid one, as a mistyped or mangled link would. */
const tamper = (text: string, at: number) => text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);

describe("opening a damaged share link", () => {
  it("opens the intact link", async () => {
    const { imported } = await openSharedPackage({ fragment }, engine, replayRepo());
    expect(imported.checkpoints).toBeGreaterThan(0);
  });

  it("a link cut short anywhere says it is incomplete", async () => {
    for (const keep of [0.1, 0.5, 0.9, 0.99].map((f) => Math.floor(fragment.length * f)).concat([fragment.length - 1])) {
      expect(await openFails(fragment.slice(0, keep)), `kept ${keep}`).toBeInstanceOf(DamagedLinkError);
    }
  });

  it("an altered link says it is damaged, even where the library's own inflate notices first", async () => {
    const causes: string[] = [];
    const step = Math.max(1, Math.floor(fragment.length / 40));
    for (let at = 0; at < fragment.length; at += step) {
      const e = await openFails(tamper(fragment, at));
      if (e) causes.push(String((e.cause as Error)?.message ?? e.cause));
    }
    // Most positions matter (a few, such as a zip timestamp, do not change what opens).
    expect(causes.length).toBeGreaterThan(25);
    // The failures come from several layers, the pack's inflation among them: all were translated.
    expect(new Set(causes.map((c) => c.slice(0, 25))).size).toBeGreaterThan(3);
    expect(causes).toContain("The bundle's pack is damaged: its data was cut short or altered.");
  });

  it("characters a link never holds say it is damaged", async () => {
    expect(await openFails(fragment.slice(0, 40) + "!!" + fragment.slice(42))).toBeInstanceOf(DamagedLinkError);
  });
});
