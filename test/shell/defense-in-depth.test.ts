/**
 * The shell suites run twice, with just-bash's defense-in-depth off and on (vitest.config.ts).
 * This checks the switch is real: with it on, the workspace file system is called from inside
 * just-bash's sandboxed context during an exec (and a blocked global throws there); with it
 * off, never.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DefenseInDepthBox } from "just-bash";
import { afterEach, expect, it } from "vitest";
import type { IsoFs } from "../../lib/fs";
import { createShell } from "../../lib/shell";
import { testDefenseInDepth } from "../helpers/defense-in-depth";

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

it(`runs commands with defense-in-depth ${testDefenseInDepth ? "on" : "off"}, as configured`, async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tabula-did-"));
  dirs.push(dir);
  fs.writeFileSync(path.join(dir, "a.txt"), "alpha\n");
  const seen: { sandboxed: boolean; functionBlocked: boolean }[] = [];
  // node's fs, observed: every readFile records whether it runs inside the sandboxed context.
  const observed = {
    ...fs,
    promises: {
      ...fs.promises,
      readFile: (...args: Parameters<typeof fs.promises.readFile>) => {
        let functionBlocked = false;
        try {
          new Function("return 1")();
        } catch {
          functionBlocked = true;
        }
        seen.push({ sandboxed: DefenseInDepthBox.isInSandboxedContext(), functionBlocked });
        return fs.promises.readFile(...args);
      },
    },
  } as unknown as IsoFs;
  const shell = await createShell({ fs: observed, dir, defenseInDepth: testDefenseInDepth });
  const r = await shell.exec("cat a.txt");
  expect(r.stdout).toBe("alpha\n");
  expect(seen.length).toBeGreaterThan(0);
  expect(seen.some((s) => s.sandboxed)).toBe(testDefenseInDepth);
  expect(seen.some((s) => s.functionBlocked)).toBe(testDefenseInDepth);
});
