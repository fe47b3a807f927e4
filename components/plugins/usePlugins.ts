"use client";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import type { AgentSession } from "@/lib/agent";
import type { ProviderSettingsStore } from "@/lib/providers";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { PluginHost, type PluginEntry, type PluginStatus } from "@/lib/plugins/host";
import { validatePlugin } from "@/lib/plugins/manifest";
import { setupInProcess } from "@/lib/plugins/load";
import { builtinPlugins } from "@/lib/plugins/builtin";
import { workerBackend } from "@/lib/plugins/builtin/goto-definition";
import { discoverWorkspacePlugins, compileTypeScript, PLUGINS_DIR, HOOKS_DIR } from "@/lib/plugins/discover";
import { sandboxedEntry, type WorkerHandle } from "@/lib/plugins/sandbox/sandboxed";
import { McpServerStore, PluginSwitches, UserPluginStore } from "@/lib/plugins/user-plugins";
import { mcpEntry } from "@/lib/plugins/mcp";
import { toProviderConfig } from "@/lib/plugins/providers";
import type { PluginContext, PluginSource } from "@/lib/plugins/types";
import { inProcessEntry } from "@/lib/plugins/in-process";
import { readWorkspaceInfo } from "@/lib/plugins/workspace-info";
import { createSandboxedPluginWorker } from "./plugin-worker";

// One TypeScript language service worker per page, started on the first goto_definition call.
let definitions: ReturnType<typeof workerBackend> | undefined;
function tsDefinitions() {
  definitions ??= workerBackend(() => new Worker(new URL("../../lib/plugins/builtin/goto-definition/worker.ts", import.meta.url), { type: "module", name: "tabula-ts" }) as unknown as WorkerHandle);
  return definitions;
}

function createPluginWorker(): WorkerHandle {
  return createSandboxedPluginWorker();
}

/**
 * The plugins of the open session: built-in ones in-process, workspace (.tabula/plugins,
 * .tabula/hooks) and user-installed ones each in its own worker. Reloaded when files under
 * .tabula/ change; switches are remembered per workspace.
 */
export function usePlugins(ws: WorkspaceState, session: AgentSession | undefined, settings: ProviderSettingsStore) {
  const [statuses, setStatuses] = useState<PluginStatus[]>([]);
  const [logs, setLogs] = useState<string[]>([]);
  const [reloadNonce, setReloadNonce] = useState(0);
  const hostRef = useRef<PluginHost | undefined>(undefined);
  // Resolves when the session's plugins have loaded: a run must not start before its guards do.
  const ready = useRef<Promise<void>>(Promise.resolve());
  const switches = useMemo(() => new PluginSwitches(localStorage, ws.meta.id), [ws.meta.id]);
  const users = useMemo(() => new UserPluginStore(localStorage), []);
  const mcpServers = useMemo(() => new McpServerStore(localStorage), []);
  const model = useRef<{ provider?: string; modelId?: string }>(undefined);
  const branch = ws.branch;

  useEffect(() => {
    if (!session) return;
    void settings.choiceFor(session.mode).then((c) => (model.current = { provider: c.providerId, modelId: c.modelId }));
  }, [session, session?.mode, settings]);

  useEffect(() => {
    if (!session) return;
    const host = new PluginHost(session, {
      currentModel: () => model.current,
      mcpEntry: (server, plugin) => mcpEntry({ ...server, source: "workspace", origin: `${server.url} (registered by ${plugin})` }),
    });
    hostRef.current = host;
    const off = host.onChange(() => {
      setStatuses(host.list());
      settings.setContributed(host.providers.map(toProviderConfig));
    });
    const on = switches.all();
    const log = (name: string) => (level: string, message: string) => setLogs((l) => [...l.slice(-199), `[${name}] ${level}: ${message}`]);
    const ctx: PluginContext = {
      workspaceInfo: { rootPath: ws.wsfs.dir, branch, remotes: [] }, // replaced by the real one below before any plugin loads
      session: { id: session.id, mode: session.mode, steer: (text) => session.steer(text) },
      logger: { info: (m) => log("built-in")("info", m), warn: (m) => log("built-in")("warn", m), error: (m) => log("built-in")("error", m) },
      workspace: { fs: ws.wsfs.fs, dir: ws.wsfs.dir },
    };
    const pluginLogger = (id: string) => ({ info: (m: string) => log(id)("info", m), warn: (m: string) => log(id)("warn", m), error: (m: string) => log(id)("error", m) });
    // Sandboxed in a worker, unless the user marked the plugin trusted (then in the page).
    const entryFor = (id: string, origin: string, source: string, kind: PluginSource): PluginEntry =>
      on[`trusted:${id}`]
        ? inProcessEntry({ name: id, origin, source, sourceKind: kind, ctx: { ...ctx, logger: pluginLogger(id) } })
        : sandboxedEntry({
            name: id,
            source,
            origin,
            sourceKind: kind,
            createWorker: createPluginWorker,
            wsfs: ws.wsfs,
            // Read when the worker (re)starts, so it carries the workspace info loaded below.
            get loadContext() {
              return { workspaceInfo: ctx.workspaceInfo, session: { id: ctx.session.id, mode: ctx.session.mode } };
            },
            onLog: log(id),
            onSteer: (text) => session.steer(text),
          });
    const failing = (id: string, origin: string, error: string, kind: PluginSource): PluginEntry => ({ name: id, source: kind, origin, sandboxed: true, load: () => Promise.reject(new Error(error)) });
    let cancelled = false;
    ready.current = (async () => {
      ctx.workspaceInfo = await readWorkspaceInfo({ fs: ws.wsfs.fs, dir: ws.wsfs.dir });
      for (const b of builtinPlugins({ definitions: (...args) => tsDefinitions()(...args) })) {
        const id = `built-in:${b.plugin.name}`;
        await host.add(
          { name: id, source: "built-in", origin: b.description, sandboxed: false, load: async () => { const p = validatePlugin(b.plugin); return { manifest: p.manifest, contributions: await setupInProcess(p, ctx) }; } },
          on[id] ?? b.enabledByDefault,
        );
      }
      for (const d of await discoverWorkspacePlugins(ws.wsfs)) {
        if (cancelled) return;
        await host.add(d.error || !d.source ? failing(d.id, d.origin, d.error ?? "No source", "workspace") : entryFor(d.id, d.origin, d.source, "workspace"), on[d.id] ?? true);
      }
      for (const u of users.list()) {
        if (cancelled) return;
        try {
          const source = u.fileName.endsWith(".ts") ? await compileTypeScript(u.source, u.fileName) : u.source;
          await host.add(entryFor(u.id, `installed: ${u.fileName}`, source, "user"), on[u.id] ?? true);
        } catch (e) {
          await host.add(failing(u.id, `installed: ${u.fileName}`, (e as Error).message, "user"));
        }
      }
      // MCP servers are remote: a slow one must not hold up the first run.
      for (const m of mcpServers.list()) {
        if (cancelled) return;
        void host.add(mcpEntry({ ...m, source: "user", origin: m.url }), on[`mcp:${m.name}`] ?? true);
      }
    })().catch(() => undefined);
    return () => {
      cancelled = true;
      off();
      host.dispose();
      settings.setContributed([]);
      hostRef.current = undefined;
    };
  }, [session, ws.wsfs, reloadNonce, switches, users, mcpServers]); // eslint-disable-line react-hooks/exhaustive-deps

  // A plugin or hook file changed: load them again.
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const off = ws.wsfs.journal.subscribe((e) => {
      const paths = e.from ? [e.from, e.path] : [e.path];
      if (!paths.some((p) => p.startsWith(PLUGINS_DIR) || p.startsWith(HOOKS_DIR) || p === ".tabula")) return;
      clearTimeout(timer);
      timer = setTimeout(() => setReloadNonce((n) => n + 1), 300);
    });
    return () => {
      off();
      clearTimeout(timer);
    };
  }, [ws.wsfs]);

  const setEnabled = useCallback(
    async (name: string, enabled: boolean) => {
      switches.set(name, enabled);
      if (enabled) await hostRef.current?.enable(name);
      else hostRef.current?.disable(name);
    },
    [switches],
  );

  /** Opt in (or out) of running a workspace or user plugin in the page instead of its sandbox. */
  const setTrusted = useCallback(
    (name: string, trusted: boolean) => {
      switches.set(`trusted:${name}`, trusted);
      setReloadNonce((n) => n + 1);
    },
    [switches],
  );

  const install = useCallback(
    async (file: File) => {
      users.install(file.name, await file.text());
      setReloadNonce((n) => n + 1);
    },
    [users],
  );

  const uninstall = useCallback(
    (id: string) => {
      users.remove(id);
      setReloadNonce((n) => n + 1);
    },
    [users],
  );

  const addMcpServer = useCallback(
    (name: string, url: string) => {
      mcpServers.add(name, url);
      setReloadNonce((n) => n + 1);
    },
    [mcpServers],
  );

  const removeMcpServer = useCallback(
    (name: string) => {
      mcpServers.remove(name.replace(/^mcp:/, ""));
      setReloadNonce((n) => n + 1);
    },
    [mcpServers],
  );

  /** Wait (at most 10 s) for the session's plugins to load: guards must be in place before a run. */
  const whenReady = useCallback(() => Promise.race([ready.current, new Promise<void>((r) => setTimeout(r, 10_000))]), []);

  return { statuses, logs, whenReady, setEnabled, setTrusted, install, uninstall, addMcpServer, removeMcpServer, reload: () => setReloadNonce((n) => n + 1) };
}
