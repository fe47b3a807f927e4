/**
 * Bundled for Chromium: clones of the bench repository as the app does them, through the app's
 * proxy on the page's origin into lightning-fs on real IndexedDB, in a worker (what the start
 * page does) or on the page's thread; and isomorphic-git's own clone, for the figure before.
 * The longest main-thread task during each clone is recorded (a stalled page is what users feel).
 */
import git from "isomorphic-git";
import { openNamedLightningFs } from "../../lib/fs/lightning.ts";
import { cloneRepository, proxiedHttp } from "../../lib/workspaces/clone.ts";
import { cloneInWorker } from "../../lib/workspaces/clone-in-worker.ts";

let longest = 0;
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) longest = Math.max(longest, e.duration);
}).observe({ type: "longtask", buffered: false });

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

globalThis.cloneBench = async (kind, url) => {
  const fsName = `bench-clone-${kind}-${Date.now()}`;
  const proxyEndpoint = new URL("/api/git-proxy", location.origin).toString();
  const phases = {};
  let phase = "";
  let at = performance.now();
  const onProgress = (p) => {
    if (p.phase === phase) return;
    const now = performance.now();
    if (phase) phases[phase] = Math.round((phases[phase] ?? 0) + now - at);
    phase = p.phase;
    at = now;
  };
  longest = 0;
  const t0 = performance.now();
  if (kind === "worker") {
    await cloneInWorker(() => new Worker("/clone-worker.js", { type: "module" }), { fsName, url, proxyEndpoint }, { onProgress });
  } else if (kind === "page") {
    const fs = openNamedLightningFs(fsName);
    await cloneRepository({ fs, dir: "/" }, url, { proxyEndpoint, onProgress });
    await fs.promises.flush();
  } else {
    const fs = openNamedLightningFs(fsName);
    await git.clone({ fs, dir: "/", url, http: proxiedHttp(proxyEndpoint), singleBranch: true, onProgress });
    await fs.promises.flush();
  }
  const ms = performance.now() - t0;
  onProgress({ phase: "end", loaded: 0 });
  await sleep(50);
  // What the workspace then holds, read back by a fresh instance (as the app's page does).
  const check = openNamedLightningFs(fsName);
  const head = (await check.promises.readFile("/.git/HEAD", "utf8")).trim();
  let files = 0;
  const walk = async (dir) => {
    for (const name of await check.promises.readdir(dir)) {
      if (dir === "/" && name === ".git") continue;
      const p = dir === "/" ? `/${name}` : `${dir}/${name}`;
      const st = await check.promises.lstat(p);
      if (st.isDirectory()) await walk(p);
      else files++;
    }
  };
  await walk("/");
  return { ms: Math.round(ms), longestTaskMs: Math.round(longest), phases, head, files };
};
