import fs from "node:fs"; import path from "node:path"; import os from "node:os"; import { execFileSync } from "node:child_process";
import { buildNodeBundle } from "./build.mjs";
import { buildRealRepo, realShape, realEngineDriver } from "./real-shape.mjs";
const base = "/tmp/rs-prof";
if (!fs.existsSync(base + "/repo/.git")) { fs.rmSync(base,{recursive:true,force:true}); buildRealRepo(base + "/repo", realShape(), {commits: 2000}); }
const api = await import(await buildNodeBundle());
for (let i = 0; i < 3; i++) {
  const d = base + "/copy" + i; fs.rmSync(d,{recursive:true,force:true});
  execFileSync("cp", ["-a", base + "/repo", d]);
  const paths = [];
  const drv = realEngineDriver(api, d, paths);
  const t = performance.now();
  const r = await drv.op("cold", 0);
  console.log("cold", (performance.now()-t).toFixed(1), JSON.stringify(r.phases));
}
