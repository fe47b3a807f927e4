"use client";
import { useEffect, useMemo, useRef, useState, useCallback } from "react";
import { revokeWorkspaceFs, workspaceManager } from "@/components/services/browser-env";
import { keepWorkingTree } from "@/lib/workspaces/rescue";
import type { ImportEntry } from "@/lib/workspaces/import-entries";
import type { WorkspaceMeta } from "@/lib/workspaces/registry";
import type { WorkspaceFs } from "@/lib/fs/workspace-fs";
import { createTabCoordinator } from "@/lib/fs/tab-coordination";
import type { ChangeEvent } from "@/lib/fs/journal";
import { DocumentStore } from "@/lib/editor/documents";
import { readTree, gitDecorations, type TreeNode, type GitDecoration } from "@/lib/workspaces/tree-model";
import { createIgnoreMatcher, currentBranch, statusTrackerFor } from "@/lib/git";
import { recoverInterruptedWrites, type WriteRecovery } from "@/lib/fs/recovery";
import { lightningReadMany } from "@/lib/checkpoints/lightning-read";
import { lightningFsName } from "@/lib/fs/lightning";
import { listDirOf } from "@/lib/fs/listing";
import { worktreeStampOf } from "@/lib/fs/worktree-stamp";

/** Finish (roll back) a checkpoint restore a closed tab left half done. Writer tab only. */
async function recoverRestore(wsfs: WorkspaceFs, id: string): Promise<WorkspaceState["restoreRecovery"]> {
  try {
    const engine = await import("@/lib/checkpoints");
    const r = await engine.recoverInterruptedRestore({ fs: wsfs.fs, dir: wsfs.dir, journal: wsfs.journal, readMany: lightningReadMany(indexedDB, lightningFsName(id)), listDir: listDirOf(wsfs.fs) });
    return r ? { txid: r.txid, paths: r.paths, savedRef: r.savedRef } : undefined;
  } catch (e) {
    if ((e as { code?: string }).code === "NOT_A_REPO") return undefined;
    return { error: (e as Error).message };
  }
}

export interface WorkspaceState {
  meta: WorkspaceMeta;
  wsfs: WorkspaceFs;
  docs: DocumentStore;
  tree: TreeNode[];
  decorations: Map<string, GitDecoration>;
  branch: string | undefined;
  /** What has been read since the workspace opened: the tree comes first, git's status after it. */
  loaded: { tree: boolean; git: boolean };
  role: "writer" | "reader";
  /** What was repaired on open after a save interrupted by a crash or a closed tab. */
  recovery?: WriteRecovery;
  /** A checkpoint restore cut off by a closed tab, rolled back on open (or why that failed). */
  restoreRecovery?: { txid: string; paths: number; savedRef: string } | { error: string };
  /** The workspace was deleted in another tab: nothing is written any more; what this tab kept. */
  deleted?: { kept: ImportEntry[]; error?: string };
  takeOver(): Promise<void>;
  refresh(): Promise<void>;
}

async function collectIgnored(nodes: TreeNode[], isIgnored: (p: string, dir: boolean) => boolean, out: string[] = []) {
  for (const n of nodes) {
    if (isIgnored(n.path, n.type === "dir")) {
      out.push(n.path);
      if (n.children) for (const c of flatten(n.children)) out.push(c);
    } else if (n.children) await collectIgnored(n.children, isIgnored, out);
  }
  return out;
}

function flatten(nodes: TreeNode[], out: string[] = []) {
  for (const n of nodes) {
    out.push(n.path);
    if (n.children) flatten(n.children, out);
  }
  return out;
}

/**
 * Opens a workspace for the workbench: its file system, documents, tree, git colours, and the
 * one-writer-per-workspace coordination with other tabs. Changes made through `lib/fs` (editor,
 * tree, later the terminal and the agent) flow through the journal and refresh the views.
 */
export function useWorkspace(id: string) {
  const [state, setState] = useState<Omit<WorkspaceState, "takeOver" | "refresh">>();
  const [error, setError] = useState<string>();
  const coordinator = useRef<ReturnType<typeof createTabCoordinator> | null>(null);
  const refreshRef = useRef<() => Promise<void>>(async () => undefined);

  useEffect(() => {
    let cancelled = false;
    let cleanup: (() => void) | undefined;
    (async () => {
      try {
        performance.mark("tabula:workspace-open");
        const { meta, wsfs } = await workspaceManager().open(id);
        performance.mark("tabula:fs-ready");
        const docs = new DocumentStore(wsfs);
        const coord = createTabCoordinator({
          workspaceId: id,
          locks: navigator.locks,
          channelFactory: (name) => new BroadcastChannel(name),
          tabId: crypto.randomUUID(),
        });
        coordinator.current = coord;
        const role = await coord.start();
        performance.mark("tabula:role");
        if (cancelled) return coord.stop();
        const recovery = role === "writer" ? await recoverInterruptedWrites(wsfs).catch(() => undefined) : undefined;
        const restoreRecovery = role === "writer" ? await recoverRestore(wsfs, id) : undefined;
        performance.mark("tabula:recovered");

        let refreshing: Promise<void> | null = null;
        let again = false;
        // A reader tab must not even refresh .git/index (isomorphic-git's status does): the writer owns it.
        const repo = {
          fs: wsfs.fs,
          dir: wsfs.dir,
          get readOnly() {
            return coord.role !== "writer";
          },
        };
        // Status from the paths that changed since the last pass (a save looks at one file, not
        // 10,000), shared with the terminal's git status.
        const tracker = statusTrackerFor(wsfs.fs, wsfs.dir);
        let isIgnored: ((rel: string, isDir: boolean) => boolean) | undefined;
        let changedPaths = new Set<string>();
        let ignoreRulesMayDiffer = true;
        // The tree is read again only when the working tree may have changed since it was read:
        // every mutation goes through the worktree stamp, which counts them (a git status or an
        // `ls` in the terminal then costs no re-read of 10,000 entries and no re-render).
        const stamp = worktreeStampOf(wsfs.fs);
        let treeReadAt: number | undefined;
        let lastTree: TreeNode[] = [];
        // `change`: what the journal saw; none after a git command, another tab, a button.
        const refresh = async (change?: WorkingTreeChange | "elsewhere") => {
          if (change === "elsewhere") treeReadAt = undefined;
          else if (change) {
            for (const p of change.paths) changedPaths.add(p);
            if (change.removedOrMoved || change.paths.some((p) => p === ".gitignore" || p.endsWith("/.gitignore"))) ignoreRulesMayDiffer = true;
          }
          if (refreshing) {
            again = true;
            return refreshing;
          }
          // Cleared in the same step that ends the loop: a call arriving after the last pass must start a new one.
          refreshing = (async () => {
            try {
              do {
                again = false;
                const paths = [...changedPaths];
                changedPaths = new Set();
                const rulesMayDiffer = ignoreRulesMayDiffer;
                ignoreRulesMayDiffer = false;
                const mutations = stamp && stamp.inflight === 0 ? stamp.mutations : undefined;
                const treeMayDiffer = treeReadAt === undefined || mutations === undefined || mutations !== treeReadAt || paths.length > 0;
                let tree = lastTree;
                if (treeMayDiffer) {
                  treeReadAt = mutations;
                  tree = lastTree = await readTree(wsfs);
                  markOnce("tabula:tree-read");
                  // The tree shows at once; git's colours and branch follow when status is done.
                  if (!cancelled) setState((s) => (s ? { ...s, tree, loaded: { ...s.loaded, tree: true } } : s));
                  // Let the tree be drawn before status starts reading the whole working tree.
                  await afterPaint();
                }
                let decorations = new Map<string, GitDecoration>();
                let branch: string | undefined;
                let pass: { full: boolean; paths?: number } = { full: true };
                markOnce("tabula:status-start");
                try {
                  const status = await tracker.update({ changed: paths, readOnly: repo.readOnly });
                  pass = { full: status.full, paths: status.paths?.length };
                  if (!treeMayDiffer && !status.full && status.paths?.length === 0) {
                    // Nothing changed but perhaps the branch (a git command): keep the colours.
                    const now = await currentBranch(repo);
                    markOnce("tabula:status-end", pass);
                    if (!cancelled) setState((s) => (s && s.branch !== now ? { ...s, branch: now } : s));
                    continue;
                  }
                  // The ignore rules are read again (a walk of every folder) only when they may differ.
                  if (status.full || rulesMayDiffer || !isIgnored) isIgnored = await createIgnoreMatcher(repo);
                  decorations = gitDecorations(status.entries, await collectIgnored(tree, isIgnored!));
                  branch = await currentBranch(repo);
                } catch {
                  // Not a git repository (yet): the tree still works without colours.
                  tracker.invalidate();
                  isIgnored = undefined;
                }
                markOnce("tabula:status-end", pass);
                if (!cancelled) setState((s) => (s ? { ...s, tree, decorations, branch, loaded: { tree: true, git: true } } : s));
              } while (again);
            } finally {
              refreshing = null;
            }
          })();
          return refreshing;
        };
        refreshRef.current = refresh;

        let timer: ReturnType<typeof setTimeout> | undefined;
        let pending: ChangeEvent[] = [];
        const unsubscribe = wsfs.journal.subscribe((event) => {
          pending.push(event);
          clearTimeout(timer);
          timer = setTimeout(async () => {
            const events = pending;
            pending = [];
            if (coord.deleted) return;
            await wsfs.flush();
            coord.broadcastChanges(events);
            void refresh({ paths: events.flatMap((e) => (e.from ? [e.from, e.path] : [e.path])), removedOrMoved: events.some((e) => e.kind === "delete" || e.kind === "rename") });
            // Edits that did not come from the editor (terminal, git, agent, restore) reload open documents.
            const external = events.filter((e) => e.origin !== "editor").flatMap((e) => (e.from ? [e.from, e.path] : [e.path]));
            if (external.length) void docs.refresh(external.some((p) => !docs.get(p)) ? "all" : external);
            void workspaceManager().refreshSize(id, wsfs).catch(() => undefined);
          }, 150);
        });
        const offRemote = coord.onRemoteChanges(async (paths) => {
          wsfs.journal.markUnknown();
          // Another tab's writes went through its own fs object, not through this tab's stamp.
          tracker.invalidate();
          await refresh("elsewhere");
          await docs.refresh(paths.length ? paths : "all");
        });
        const offRole = coord.onRoleChange((r) => {
          // What this tab knew as a reader may miss what the writer did: walk once as the writer.
          tracker.invalidate();
          setState((s) => (s ? { ...s, role: r } : s));
        });
        // Deleted on the start page of another tab: stop writing at once, keep the files (with
        // the editors' unsaved text) before the storage goes, then let go of it entirely.
        const offDeleted = coord.onDeleted(async () => {
          const why = "This workspace was deleted in another tab; nothing more is saved here";
          revokeWorkspaceFs(id, "writes", why);
          // Persist lightning-fs's file tree now, so no delayed write of it comes after the deletion.
          await wsfs.flush().catch(() => undefined);
          let kept: ImportEntry[] = [];
          let error: string | undefined;
          try {
            const unsaved = docs.list().filter((d) => !d.readOnly && d.text !== d.savedText).map((d) => ({ path: d.path, text: d.text }));
            kept = await keepWorkingTree(wsfs, unsaved);
          } catch (e) {
            error = (e as Error).message;
          }
          revokeWorkspaceFs(id, "all", why);
          if (!cancelled) setState((s) => (s ? { ...s, role: "reader", deleted: { kept, error } } : s));
        });
        const onPageHide = () => void wsfs.flush().catch(() => undefined);
        addEventListener("pagehide", onPageHide);
        cleanup = () => {
          unsubscribe();
          offRemote();
          offRole();
          offDeleted();
          clearTimeout(timer);
          removeEventListener("pagehide", onPageHide);
          if (!coord.deleted) void wsfs.flush();
          coord.stop();
        };
        setState({ meta, wsfs, docs, tree: [], decorations: new Map(), branch: undefined, loaded: { tree: false, git: false }, role, recovery: recovery?.restored.length ? recovery : undefined, restoreRecovery });
        await refresh();
      } catch (e) {
        if (!cancelled) setError((e as Error).message);
      }
    })();
    return () => {
      cancelled = true;
      cleanup?.();
    };
  }, [id]);

  const takeOver = useCallback(async () => {
    await coordinator.current?.takeOver();
    await refreshRef.current();
    await state?.docs.refresh("all");
  }, [state?.docs]);

  const refresh = useCallback(() => refreshRef.current(), []);

  const value = useMemo<WorkspaceState | undefined>(() => (state ? { ...state, takeOver, refresh } : undefined), [state, takeOver, refresh]);
  return { workspace: value, error };
}

/** Working-tree paths written, removed or renamed (both names), from the change journal. */
type WorkingTreeChange = { paths: string[]; removedOrMoved: boolean };

/** After the next frame is painted (or 100 ms in a hidden tab, where frames do not come). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    const fallback = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      clearTimeout(fallback);
      setTimeout(resolve, 0);
    });
  });
}

/**
 * A performance mark for the latest pass only (benchmarks and tests read them: the tree is
 * read, status starts, status ends). A workspace refreshes after every change, so the older
 * mark of the same name goes first instead of piling up for as long as the tab is open.
 */
function markOnce(name: string, detail?: unknown): void {
  performance.clearMarks(name);
  performance.mark(name, detail === undefined ? undefined : { detail });
}
