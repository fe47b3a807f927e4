"use client";
import { browserGitTransport } from "@/components/scm/git-transport";
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { PreviewController } from "@/lib/preview/controller";
import { createBrowserAgentDeps, type AgentMode, type AgentSession, type SessionData } from "@/lib/agent";
import type { ImageAttachment } from "@/lib/agent/images";
import { PanelStore } from "@/lib/agent/panel-store";
import { ProviderSettingsStore } from "@/lib/providers";
import { ChildSessions, SessionStore, attachAutosave, searchSessions, type SearchableSession, type SessionMeta } from "@/lib/sessions";
import { createModedSession, forkModedSession } from "@/lib/modes";
import { DEFAULT_ORCHESTRATION_CAP, followPluginHooksForRun, modedChildFactory } from "@/lib/orchestrate";
import { Orchestrations } from "@/components/orchestrate/orchestrations";
import { lightningReadMany } from "@/lib/checkpoints/lightning-read";
import { lightningFsName } from "@/lib/fs/lightning";
import { browserPythonRuntime } from "@/components/services/python-runtime";
import { browserNodeRuntime } from "@/components/services/node-runtime";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import type { ChildGroup } from "@/lib/timeline";
import { resolveMentionsIn } from "@/lib/agent/mentions-context";
import { PackageSettingsStore } from "@/lib/packages/settings";
import { mentionSources, workspaceRulesFor } from "./agent-context";

/**
 * One agent session for the open workspace: created (or resumed from IndexedDB) once, persisted
 * on every change, re-rendered on every event (its live state is `lib/agent/panel-state.ts`'s
 * reducer, read through a store). Keys stay in the provider settings (this origin's
 * storage) and never reach the session, its events or its saved form.
 */
export function useAgent(ws: WorkspaceState, preview?: PreviewController) {
  const settings = useMemo(() => new ProviderSettingsStore(localStorage), []);
  const store = useMemo(() => new SessionStore(indexedDB, { secrets: () => settings.secrets() }), [settings]);
  const deps = useMemo(
    () =>
      createBrowserAgentDeps({
        wsfs: ws.wsfs,
        checkpointReadMany: lightningReadMany(indexedDB, lightningFsName(ws.meta.id)),
        gitTransport: () => browserGitTransport(),
        python: browserPythonRuntime(),
        node: browserNodeRuntime(),
        preview,
        packages: () => new PackageSettingsStore(localStorage).access(),
      }),
    [ws.wsfs, ws.meta.id, preview],
  );
  // The preview serves what the agent may see (lib/preview/controller.ts says why).
  useEffect(() => {
    if (!preview) return;
    preview.source = deps.wsfs;
    return () => {
      if (preview.source === deps.wsfs) preview.source = null;
    };
  }, [preview, deps]);
  const [session, setSession] = useState<AgentSession>();
  const [history, setHistory] = useState<SessionMeta[]>([]);
  const panel = useMemo(() => new PanelStore(), []);
  const live = useSyncExternalStore(panel.subscribe, panel.getSnapshot, panel.getSnapshot);
  const [error, setError] = useState<string>();
  const [modelLabel, setModelLabel] = useState("");
  // The workspace object changes on every refresh; the subscription must not (it would reset the live state).
  const wsRef = useRef(ws);
  wsRef.current = ws;
  // Sub-agents and team members: saved as they run, found again by their parent's call after a reload.
  const children = useMemo(
    () =>
      new ChildSessions(store, ws.meta.id, {
        hydrate: (data) => createModedSession({ deps, model: settings.modelSource(), workspaceId: ws.meta.id }, data),
        onSaveError: (e) => setError(`Could not save a sub-agent's session: ${(e as Error).message}`),
      }),
    [store, deps, settings, ws.meta.id],
  );
  useEffect(() => () => void children.dispose(), [children]);
  // The proposal inbox lives here, in the UI: sessions get only its submitting side.
  const orchestrations = useMemo(
    () =>
      new Orchestrations(async (parent) => {
        await settings.load();
        // Children ask for approval as the parent would (its settings now); their transcripts open from the Team view.
        return modedChildFactory({
          deps,
          workspaceId: ws.meta.id,
          // A role's model when it names one (checked against the providers in use when proposed).
          model: (spec) => settings.modelSourceFor(spec.model),
          prices: await settings.prices(),
          redact: settings.redact,
          checkpointRunEnd: true,
          checkpointEachCall: true,
          approvals: parent.state.approvals,
          setup: (child) => {
            followPluginHooksForRun(parent, child);
            children.adopt(child);
          },
        });
      }, () => void wsRef.current.refresh(), store, (e) => setError(`Could not save the team's record: ${(e as Error).message}`)),
    [deps, settings, ws.meta.id, children, store],
  );
  useEffect(
    () => () => {
      orchestrations.stopAll();
      void orchestrations.flush();
    },
    [orchestrations],
  );

  const makeSession = useCallback(
    async (data?: Awaited<ReturnType<SessionStore["load"]>>) => {
      await settings.load();
      // The open file is read when a prompt is sent: its selection, and the rules of its folders.
      const activePath = () => wsRef.current.docs.active;
      const sources = mentionSources(deps, activePath);
      const context = { resolveMentions: (prompt: string) => resolveMentionsIn(prompt, sources), workspaceRules: workspaceRulesFor(deps, wsRef.current.meta, activePath) };
      // checkpointRunEnd: the timeline tells the agent's changes from edits made by hand between runs;
      // checkpointEachCall: a point after each file-changing call, to scrub and undo step by step.
      const prices = await settings.prices();
      const common = { deps, model: settings.modelSource(), prices, redact: settings.redact, checkpointRunEnd: true, checkpointEachCall: true, ...context };
      // Agent mode's sub-agents: sessions of their own, checkpointed like any run, asking for
      // approval as the parent would (its settings when the child starts), their cost charged to the parent.
      let parent: AgentSession | undefined;
      const createChild = modedChildFactory({
        deps,
        workspaceId: ws.meta.id,
        model: () => settings.modelSource(),
        prices,
        redact: settings.redact,
        checkpointRunEnd: true,
        checkpointEachCall: true,
        setup: (child) => {
          if (parent) {
            child.configure({ approvals: parent.state.approvals });
            followPluginHooksForRun(parent, child);
          }
          children.adopt(child);
        },
      });
      parent = createModedSession({ ...common, workspaceId: ws.meta.id }, data, {
        proposals: orchestrations.sink(),
        cap: () => DEFAULT_ORCHESTRATION_CAP,
        models: async () => (await settings.availableModels()).map((m) => m.modelId),
        delegate: { createChild },
      });
      return parent;
    },
    [deps, settings, ws.meta.id, orchestrations, children],
  );

  const describeModel = useCallback(
    async (mode: AgentMode) => {
      const s = await settings.load();
      const choice = await settings.choiceFor(mode);
      const provider = s.providers.find((p) => p.id === choice.providerId);
      setModelLabel(provider?.kind === "demo" ? (provider.label ?? "Demo") : `${provider?.label ?? choice.providerId} · ${choice.modelId}`);
    },
    [settings],
  );

  // Child sessions are not in the history list, but their checkpoints are in the workspace's: named after them.
  const [childHistory, setChildHistory] = useState<SessionMeta[]>([]);
  const refreshHistory = useCallback(async () => {
    setHistory(await store.list(ws.meta.id).catch(() => []));
    setChildHistory(await store.childrenIn(ws.meta.id).catch(() => []));
  }, [store, ws.meta.id]);

  // Resume the workspace's latest session, or start one.
  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const latest = await store.latest(ws.meta.id);
        const s = await makeSession(latest);
        if (!cancelled) setSession(s);
        void refreshHistory();
      } catch (e) {
        if (!cancelled) setError(`The agent could not start: ${(e as Error).message}`);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [store, makeSession, refreshHistory, ws.meta.id]);


  // Follow, autosave, and act on what the events mean outside the panel: notify when the run
  // waits for the user in a hidden tab, describe the model of a new mode, refresh when a run ends.
  useEffect(() => {
    if (!session) return;
    const unfollow = panel.follow(session);
    // The cards' answers and teams of this session, as they were before a reload.
    orchestrations.restore(session).catch((e: Error) => setError(`Could not read the session's teams: ${e.message}`));
    const autosave = attachAutosave(session, store, { onError: (e) => setError(`Could not save the session: ${(e as Error).message}`) });
    // A reload or a closed tab: what waits for the debounce is written now (IndexedDB finishes it).
    const onPageHide = () => {
      void autosave.flush();
      void children.flush();
      void orchestrations.flush();
    };
    addEventListener("pagehide", onPageHide);
    const off = session.subscribe((e) => {
      switch (e.type) {
        case "approval-requested":
        case "question-asked":
          if (typeof document !== "undefined" && document.hidden && "Notification" in window && Notification.permission === "granted") {
            new Notification("Tabula: the agent is waiting for you", { body: e.type === "approval-requested" ? `Approve ${e.toolName}?` : e.question });
          }
          break;
        case "mode-changed":
          void describeModel(e.to);
          break;
        case "run-finished":
          void refreshHistory();
          void wsRef.current.refresh();
          break;
      }
    });
    return () => {
      removeEventListener("pagehide", onPageHide);
      session.close(); // tells plugins' SessionShutdown hooks
      off();
      unfollow();
      void autosave.flush();
      autosave.detach();
    };
  }, [session, store, panel, refreshHistory, describeModel, orchestrations, children]);

  useEffect(() => {
    if (session) void describeModel(session.state.mode);
  }, [session, describeModel]);

  const send = useCallback(
    async (prompt: string, images?: ImageAttachment[]) => {
      if (!session) return;
      if ("Notification" in window && Notification.permission === "default") void Notification.requestPermission().catch(() => undefined);
      try {
        await session.run(prompt, images?.length ? { images } : {});
      } catch (e) {
        setError((e as Error).message); // bad input (an image the session refuses) or a run already going
      }
    },
    [session],
  );

  const newSession = useCallback(async () => {
    if (session?.state.running) session.stop();
    setSession(await makeSession());
  }, [session, makeSession]);

  const openSession = useCallback(
    async (id: string) => {
      const data = await store.load(id);
      if (!data) throw new Error("That session no longer exists.");
      if (session?.state.running) session.stop();
      setSession(await makeSession(data));
    },
    [store, session, makeSession],
  );

  const deleteSession = useCallback(
    async (id: string) => {
      await store.delete(id);
      if (session?.id === id) setSession(await makeSession());
      void refreshHistory();
    },
    [store, session, makeSession, refreshHistory],
  );

  const reloadModel = useCallback(async () => {
    await settings.load();
    session?.configure({ model: settings.modelSource(), prices: await settings.prices() });
    if (session) await describeModel(session.state.mode);
  }, [session, settings, describeModel]);

  /** Start a new session from the conversation up to `messageId` (the original stays as it was). */
  const fork = useCallback(
    async (messageId: string) => {
      if (!session) return;
      const forked = forkModedSession(session, messageId);
      await store.save(forked.toJSON());
      setSession(forked);
      void refreshHistory();
    },
    [session, store, refreshHistory],
  );

  /**
   * Run a past prompt again in a new session that holds the conversation before it (the
   * original stays whole), optionally putting the files back as they were before that turn.
   */
  const forkAndRerun = useCallback(
    async (messageId: string, restoreFiles: boolean) => {
      if (!session) return;
      try {
        const plan = session.history.rerunPlan(messageId);
        if (restoreFiles) {
          if (!plan.checkpointRef) throw new Error("That turn has no checkpoint to restore the files to.");
          await session.history.restoreFilesTo(plan.checkpointRef);
          void ws.refresh();
        }
        const forked = plan.forkAt ? forkModedSession(session, plan.forkAt) : await makeSession();
        if (!plan.forkAt) {
          // The first prompt: nothing to fork, a new session with the same mode and approvals.
          forked.setMode(session.state.mode);
          forked.configure({ approvals: session.state.approvals });
        }
        forked.configure({ title: `Re-run: ${plan.prompt.replace(/\s+/g, " ").slice(0, 70)}` });
        await store.save(forked.toJSON());
        setSession(forked);
        void refreshHistory();
        await forked.run(plan.prompt, plan.images ? { images: plan.images } : {});
      } catch (e) {
        setError((e as Error).message);
      }
      void ws.refresh();
    },
    [session, store, makeSession, refreshHistory, ws],
  );

  /** Replace a past prompt and run from there, optionally putting the files back as they were before that turn. */
  const editAndResend = useCallback(
    async (messageId: string, text: string, restoreFiles: boolean) => {
      if (!session) return;
      try {
        await session.history.editAndResend(messageId, text, { restoreFiles });
      } catch (e) {
        setError((e as Error).message);
      }
      void ws.refresh();
    },
    [session, ws],
  );

  const setMode = useCallback((mode: AgentMode) => session?.setMode(mode), [session]);

  // Whole-transcript search: each stored session is read once per version of it; the open one as it is now (not copied).
  const loaded = useRef(new Map<string, SessionData>());
  const searchHistory = useCallback(
    async (query: string) => {
      const metas = await store.list(ws.meta.id);
      const datas: SearchableSession[] = session ? [{ id: session.id, title: session.state.title, updatedAt: session.state.updatedAt, messages: session.state.messages }] : [];
      for (const m of metas) {
        if (m.id === session?.id) continue;
        let d = loaded.current.get(m.id);
        if (!d || d.updatedAt !== m.updatedAt) {
          d = await store.load(m.id);
          if (!d) continue;
          loaded.current.set(m.id, d);
        }
        datas.push(d);
      }
      return searchSessions(datas, query);
    },
    [store, ws.meta.id, session],
  );

  /**
   * The session's teams and sub-agents, each one tick on its timeline: child sessions grouped by
   * the call that made them (a team's card, a delegate call), named after the team's goal or the
   * sub-agent's task.
   */
  const childGroups = useCallback(
    async (parent: AgentSession): Promise<ChildGroup[]> => {
      const byCall = new Map<string, SessionMeta[]>();
      for (const m of await store.childrenOf(ws.meta.id, parent.id)) {
        const call = m.parent!.toolCallId;
        byCall.set(call, [...(byCall.get(call) ?? []), m]);
      }
      return [...byCall].map(([call, members]) => {
        const team = orchestrations.teamFor(call);
        const title = team ? `Team: ${team.state.goal}` : members.length === 1 ? `Sub-agent: ${members[0]!.title}` : `${members.length} sub-agents`;
        return { key: call, title, sessionIds: members.map((m) => m.id) };
      });
    },
    [store, ws.meta.id, orchestrations],
  );

  const clearError = useCallback(() => setError(undefined), []);

  return { session, live, orchestrations, children, childGroups, childHistory, modelLabel, fork, forkAndRerun, editAndResend, error, clearError, settings, history, refreshHistory, searchHistory, send, newSession, openSession, deleteSession, reloadModel, setMode };
}

export type AgentController = ReturnType<typeof useAgent>;
