"use client";
import { browserGitTransport } from "@/components/scm/git-transport";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { createBrowserAgentDeps, type AgentEvent, type AgentMode, type AgentSession } from "@/lib/agent";
import { ProviderSettingsStore } from "@/lib/providers";
import { SessionStore, attachAutosave, type SessionMeta } from "@/lib/sessions";
import { createModedSession, forkModedSession } from "@/lib/modes";
import { lightningReadMany } from "@/lib/checkpoints/lightning-read";
import { lightningFsName } from "@/lib/fs/lightning";
import { browserPythonRuntime } from "@/components/services/python-runtime";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";

export interface LiveState {
  /** Assistant text being streamed, by message id (replaced by the message when it is added). */
  streaming: Map<string, string>;
  /** Tool calls started and not finished yet, by call id. */
  runningTools: Map<string, AgentEvent & { type: "tool-call-started" }>;
  lastError?: string;
  /** Events of the run so far that the transcript shows inline (checkpoints, retries, errors). */
  notices: AgentEvent[];
}

/**
 * One agent session for the open workspace: created (or resumed from IndexedDB) once, persisted
 * on every change, re-rendered on every event. Keys stay in the provider settings (this origin's
 * storage) and never reach the session, its events or its saved form.
 */
export function useAgent(ws: WorkspaceState) {
  const settings = useMemo(() => new ProviderSettingsStore(localStorage), []);
  const store = useMemo(() => new SessionStore(indexedDB, { secrets: () => settings.secrets() }), [settings]);
  const deps = useMemo(
    () => createBrowserAgentDeps({ wsfs: ws.wsfs, checkpointReadMany: lightningReadMany(indexedDB, lightningFsName(ws.meta.id)), gitTransport: () => browserGitTransport(), python: browserPythonRuntime() }),
    [ws.wsfs, ws.meta.id],
  );
  const [session, setSession] = useState<AgentSession>();
  const [version, setVersion] = useState(0);
  const [history, setHistory] = useState<SessionMeta[]>([]);
  const live = useRef<LiveState>({ streaming: new Map(), runningTools: new Map(), notices: [] });
  const [error, setError] = useState<string>();
  const [modelLabel, setModelLabel] = useState("");

  const makeSession = useCallback(
    async (data?: Awaited<ReturnType<SessionStore["load"]>>) => {
      await settings.load();
      // checkpointRunEnd: the timeline tells the agent's changes from edits made by hand between runs.
      const common = { deps, model: settings.modelSource(), prices: await settings.prices(), redact: settings.redact, checkpointRunEnd: true };
      return createModedSession({ ...common, workspaceId: ws.meta.id }, data);
    },
    [deps, settings, ws.meta.id],
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

  const refreshHistory = useCallback(async () => setHistory(await store.list(ws.meta.id).catch(() => [])), [store, ws.meta.id]);

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

  // The workspace object changes on every refresh; the subscription must not (it would reset the live state).
  const wsRef = useRef(ws);
  wsRef.current = ws;

  // Subscribe, autosave, and notify when the run waits for the user in a hidden tab.
  useEffect(() => {
    if (!session) return;
    live.current = { streaming: new Map(), runningTools: new Map(), notices: [] };
    const autosave = attachAutosave(session, store, { onError: (e) => setError(`Could not save the session: ${(e as Error).message}`) });
    const off = session.subscribe((e) => {
      const l = live.current;
      switch (e.type) {
        case "run-started":
          l.notices = [];
          l.lastError = undefined;
          break;
        case "text-delta":
          l.streaming.set(e.messageId, (l.streaming.get(e.messageId) ?? "") + e.delta);
          break;
        case "message-added":
          l.streaming.delete(e.message.id);
          break;
        case "tool-call-started":
          l.runningTools.set(e.toolCallId, e);
          break;
        case "tool-call-finished":
          l.runningTools.delete(e.toolCallId);
          break;
        case "error":
          l.lastError = e.message;
          l.notices.push(e);
          break;
        case "retry":
        case "checkpoint-created":
        case "hook-error":
        case "compaction":
        case "files-restored":
          l.notices.push(e);
          break;
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
          l.streaming.clear();
          l.runningTools.clear();
          void refreshHistory();
          void wsRef.current.refresh();
          break;
      }
      setVersion((v) => v + 1);
    });
    return () => {
      session.close(); // tells plugins' SessionShutdown hooks
      off();
      void autosave.flush();
      autosave.detach();
    };
  }, [session, store, refreshHistory, describeModel]);

  useEffect(() => {
    if (session) void describeModel(session.state.mode);
  }, [session, describeModel]);

  const send = useCallback(
    async (prompt: string) => {
      if (!session) return;
      if ("Notification" in window && Notification.permission === "default") void Notification.requestPermission().catch(() => undefined);
      await session.run(prompt);
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
    setVersion((v) => v + 1);
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

  const bump = useCallback(() => setVersion((v) => v + 1), []);

  const setMode = useCallback((mode: AgentMode) => session?.setMode(mode), [session]);

  return { session, version, modelLabel, fork, editAndResend, bump, live: live.current, error, settings, history, refreshHistory, send, newSession, openSession, deleteSession, reloadModel, setMode };
}

export type AgentController = ReturnType<typeof useAgent>;
