import { defineConfig } from "vitest/config";
import os from "node:os";
import path from "node:path";

const root = import.meta.dirname;
// Native git in the tests runs with TZ=UTC; the workers (forked from here) read the same zone,
// so "--date=local" means the same thing on both sides whatever the machine's zone.
process.env.TZ = "UTC";

export default defineConfig({
  resolve: { alias: { "@": path.resolve(root) } },
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // vitest's default is one worker fewer than the cores: on CI's 2 cores, one file at a time,
    // idle while each file starts (a third of the unit phase). Measured on 2 cores: 649 s with
    // one worker, 322 s with two, every test passing. TABULA_UNIT_WORKERS overrides it.
    maxWorkers: Number(process.env.TABULA_UNIT_WORKERS ?? Math.max(2, os.availableParallelism())),
    allowOnly: false,
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["test/**/*.test.ts"], environment: "node" },
      },
      {
        // The browser ships just-bash's defense-in-depth on: the suites that run real shells
        // run a second time with it on (test/helpers/defense-in-depth.ts). lightning.test.ts
        // stays off: under Node the box blocks the setImmediate fake-indexeddb needs.
        extends: true,
        test: {
          name: "defense-in-depth",
          include: ["test/shell/**/*.test.ts", "test/agent/**/*.test.ts", "test/modes/**/*.test.ts", "test/timeline/**/*.test.ts"],
          exclude: ["test/shell/lightning.test.ts"],
          environment: "node",
          env: { TABULA_TEST_DEFENSE_IN_DEPTH: "1" },
        },
      },
    ],
  },
});
