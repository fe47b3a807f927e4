"use client";
import { useState } from "react";
import { workspaceManager } from "@/components/services/browser-env";
import type { WorkspaceMeta } from "@/lib/workspaces/registry";
import { formatBytes } from "@/lib/editor/file-kind";
import { ConfirmDialog, ProgressBar } from "@/components/common/Dialog";
import { downloadBytes, relativeTime, safeFileName } from "@/components/common/download";
import { exportZip } from "@/lib/workspaces/zip";
import { announceDeletion, countOpenTabs } from "@/lib/fs/tab-coordination";

export function WorkspaceList(props: { workspaces: WorkspaceMeta[] | undefined; onChanged: () => void }) {
  const [renaming, setRenaming] = useState<{ id: string; name: string }>();
  // `openTabs`: how many tabs have it open now (undefined: this browser cannot tell).
  const [deleting, setDeleting] = useState<WorkspaceMeta & { openTabs?: number }>();
  const [exporting, setExporting] = useState<{ id: string; done: number; total: number }>();
  const [error, setError] = useState<string>();

  if (!props.workspaces) return <p className="muted">Loading…</p>;
  if (props.workspaces.length === 0) return <p className="muted">No workspaces yet. Create one below.</p>;

  const commitRename = async () => {
    if (!renaming) return;
    try {
      await workspaceManager().rename(renaming.id, renaming.name);
      setRenaming(undefined);
      setError(undefined);
      props.onChanged();
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const exportWorkspace = async (meta: WorkspaceMeta, withHistory = false) => {
    setError(undefined);
    setExporting({ id: meta.id, done: 0, total: meta.fileCount });
    try {
      const { wsfs } = await workspaceManager().open(meta.id);
      const bytes = await exportZip(wsfs, (done, total) => setExporting({ id: meta.id, done, total }), { withHistory });
      downloadBytes(bytes, `${safeFileName(meta.name)}${withHistory ? "-with-history" : ""}.zip`, "application/zip");
    } catch (e) {
      setError(`Export failed: ${(e as Error).message}`);
    } finally {
      setExporting(undefined);
    }
  };

  const duplicates = new Set(props.workspaces.map((w) => w.name).filter((n, i, all) => all.indexOf(n) !== i));
  return (
    <>
      {error && <div className="banner error" role="alert">{error}</div>}
      <table className="ws-table" aria-label="Workspaces">
        <thead>
          <tr>
            <th>Name</th>
            <th>Last opened</th>
            <th>Size</th>
            <th />
          </tr>
        </thead>
        <tbody>
          {props.workspaces.map((ws) => (
            <tr key={ws.id} data-workspace-id={ws.id}>
              <td>
                {renaming?.id === ws.id ? (
                  <input
                    type="text"
                    aria-label="New workspace name"
                    autoFocus
                    value={renaming.name}
                    onChange={(e) => setRenaming({ id: ws.id, name: e.target.value })}
                    onKeyDown={(e) => {
                      if (e.key === "Enter") void commitRename();
                      if (e.key === "Escape") setRenaming(undefined);
                    }}
                    onBlur={() => void commitRename()}
                  />
                ) : (
                  <a href={`/w/${ws.id}`}>{ws.name}</a>
                )}
                {/* Same name twice: say which is which (when it was made, and its id's start). */}
                {duplicates.has(ws.name) && (
                  <div className="muted" style={{ fontSize: 12 }} data-testid="workspace-disambiguation">
                    created {new Date(ws.createdAt).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "medium" })} · id {ws.id.slice(0, 6)}
                  </div>
                )}
                {exporting?.id === ws.id && <ProgressBar done={exporting.done} total={exporting.total} label="Exporting" />}
              </td>
              <td className="muted">{relativeTime(ws.lastOpenedAt)}</td>
              <td className="muted">
                {formatBytes(ws.sizeBytes)} · {ws.fileCount} files
              </td>
              <td className="actions">
                <button onClick={() => setRenaming({ id: ws.id, name: ws.name })}>Rename</button>{" "}
                <button onClick={() => void exportWorkspace(ws)} disabled={!!exporting} title="The files, without .git">
                  Export .zip
                </button>{" "}
                <button onClick={() => void exportWorkspace(ws, true)} disabled={!!exporting} title="The files and the repository (.git: history, branches, remotes)">
                  Export with history
                </button>{" "}
                <button onClick={async () => setDeleting({ ...ws, openTabs: await countOpenTabs(navigator.locks, ws.id).catch(() => undefined) })}>Delete</button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deleting && (
        <ConfirmDialog
          title="Delete workspace?"
          danger
          confirmLabel="Delete"
          message={
            <>
              <p>
                <strong>{deleting.name}</strong> ({deleting.fileCount} files, {formatBytes(deleting.sizeBytes)}) and its git history will be removed from this browser. Export it first if
                you may need it.
              </p>
              {!!deleting.openTabs && (
                <p className="error" data-testid="open-elsewhere">
                  It is open in {deleting.openTabs === 1 ? "another tab" : `${deleting.openTabs} other tabs`}. {deleting.openTabs === 1 ? "That tab stops" : "Those tabs stop"} saving at
                  once and offer to keep its files (as a .zip or a new workspace), unsaved edits included.
                </p>
              )}
            </>
          }
          onCancel={() => setDeleting(undefined)}
          onConfirm={async () => {
            const target = deleting;
            setDeleting(undefined);
            try {
              // Open tabs stop writing and keep their state first; then the storage goes.
              await announceDeletion({ workspaceId: target.id, locks: navigator.locks, channelFactory: (name) => new BroadcastChannel(name), tabId: crypto.randomUUID() });
              await workspaceManager().remove(target.id);
            } catch (e) {
              setError(`Delete failed: ${(e as Error).message}`);
            }
            props.onChanged();
          }}
        />
      )}
    </>
  );
}
