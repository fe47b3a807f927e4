"use client";
import { useEffect, useMemo, useRef, useSyncExternalStore } from "react";
import type { AgentSession } from "@/lib/agent";
import type { ProviderSettingsStore } from "@/lib/providers";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { builtinPlugins } from "@/lib/plugins/builtin";
import { workerBackend } from "@/lib/plugins/builtin/goto-definition";
import type { WorkerHandle } from "@/lib/plugins/sandbox/sandboxed";
import { toProviderConfig } from "@/lib/plugins/providers";
import { SessionPlugins, type PluginsSnapshot } from "@/lib/plugins/session-plugins";
import { createSandboxedPluginWorker } from "./plugin-worker";
import { describeProvenance, trustedByProvenance } from "@/lib/workspaces/provenance";

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
 * The plugins of the open session, as lib/plugins/session-plugins runs them (discover → trust →
 * load → attach → reload on change): this hook only creates that object per session, subscribes
 * to it and forwards the user's intents.
 */
export function usePlugins(ws: WorkspaceState, session: AgentSession | undefined, settings: ProviderSettingsStore) {
  const model = useRef<{ provider?: string; modelId?: string }>(undefined);

  useEffect(() => {
    if (!session) return;
    void settings.choiceFor(session.state.mode).then((c) => (model.current = { provider: c.providerId, modelId: c.modelId }));
  }, [session, session?.state.mode, settings]);

  const plugins = useMemo(
    () =>
      session
        ? new SessionPlugins({
            session,
            wsfs: ws.wsfs,
            workspace: { id: ws.meta.id, trustedByDefault: trustedByProvenance(ws.meta), provenance: describeProvenance(ws.meta) },
            storage: localStorage,
            createWorker: createPluginWorker,
            builtins: () => builtinPlugins({ definitions: (...args) => tsDefinitions()(...args) }),
            currentModel: () => model.current,
            onProviders: (providers) => settings.setContributed(providers.map(toProviderConfig)),
          })
        : undefined,
    [session, ws.wsfs, ws.meta.id], // eslint-disable-line react-hooks/exhaustive-deps
  );

  useEffect(() => {
    if (!plugins) return;
    plugins.start();
    // Trust given or revoked in another tab of this workspace applies here too.
    const onStorage = (e: StorageEvent) => {
      if (e.key === plugins.trust.key) plugins.reload();
    };
    addEventListener("storage", onStorage);
    return () => {
      removeEventListener("storage", onStorage);
      plugins.dispose();
    };
  }, [plugins]);

  const snapshot = useSyncExternalStore(plugins?.subscribe ?? noSubscribe, plugins?.getSnapshot ?? emptySnapshot, plugins?.getSnapshot ?? emptySnapshot);

  return {
    ...snapshot,
    whenReady: () => plugins?.whenReady() ?? Promise.resolve(),
    setEnabled: (name: string, enabled: boolean) => plugins?.setEnabled(name, enabled) ?? Promise.resolve(),
    setInPage: (name: string, inPage: boolean) => plugins?.setInPage(name, inPage),
    install: async (file: File) => plugins?.install(file.name, await file.text()),
    uninstall: (id: string) => plugins?.uninstall(id),
    addMcpServer: (name: string, url: string, token?: string) => plugins?.addMcpServer(name, url, token),
    removeMcpServer: (name: string) => plugins?.removeMcpServer(name),
    reload: () => plugins?.reload(),
    trustWorkspace: () => plugins?.trustWorkspace(),
    stayRestricted: () => plugins?.stayRestricted(),
    revokeTrust: () => plugins?.revokeTrust(),
    acceptChanges: () => plugins?.acceptChanges(),
  };
}

const noSubscribe = () => () => undefined;
const EMPTY: PluginsSnapshot = { statuses: [], logs: [], loading: true, trust: { decision: "undecided", provenance: "", files: [] } };
const emptySnapshot = () => EMPTY;
