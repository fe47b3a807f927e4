/**
 * `node:os` with honest values: the program runs in a browser tab, so the platform is "browser"
 * … except that scripts branch on `os.platform()` for path rules, and the tree here is posix, so
 * platform() says "linux" and type() says what it really is. CPU count and memory come from the
 * browser where it tells them (navigator.hardwareConcurrency, navigator.deviceMemory).
 */
export function osModule(env: Record<string, string>): Record<string, unknown> {
  const nav = (globalThis as { navigator?: { hardwareConcurrency?: number; deviceMemory?: number; userAgent?: string } }).navigator;
  const cpus = Math.max(1, nav?.hardwareConcurrency ?? 1);
  const mem = (nav?.deviceMemory ?? 0) * 1024 ** 3;
  const started = Date.now();
  return {
    EOL: "\n",
    devNull: "/dev/null",
    platform: () => "linux",
    type: () => "Tabula (browser tab)",
    release: () => "0.0.0",
    version: () => "in-tab JavaScript runtime",
    machine: () => "wasm32",
    arch: () => "wasm32",
    hostname: () => "tabula",
    homedir: () => env.HOME ?? "/home/user",
    tmpdir: () => "/tmp",
    endianness: () => "LE",
    uptime: () => Math.round((Date.now() - started) / 1000),
    loadavg: () => [0, 0, 0],
    totalmem: () => mem,
    freemem: () => mem,
    availableParallelism: () => cpus,
    cpus: () => Array.from({ length: cpus }, () => ({ model: "unknown (browser)", speed: 0, times: { user: 0, nice: 0, sys: 0, idle: 0, irq: 0 } })),
    networkInterfaces: () => ({}),
    userInfo: () => ({ uid: 1000, gid: 1000, username: env.USER ?? "user", homedir: env.HOME ?? "/home/user", shell: env.SHELL ?? null }),
    constants: { signals: { SIGINT: 2, SIGTERM: 15, SIGKILL: 9, SIGHUP: 1 }, errno: {} },
  };
}
