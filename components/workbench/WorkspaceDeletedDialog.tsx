"use client";
import { useState } from "react";
import { workspaceManager } from "@/components/services/browser-env";
import { downloadBytes, safeFileName } from "@/components/common/download";
import { entriesToZip } from "@/lib/workspaces/rescue";
import type { ImportEntry } from "@/lib/workspaces/import-entries";

/**
 * Shown when the open workspace was deleted in another tab: nothing is written any more, and the
 * files this tab kept (with its unsaved editor text) can be downloaded or made a new workspace.
 */
export function WorkspaceDeletedDialog(props: { name: string; kept: ImportEntry[]; error?: string }) {
  const [name, setName] = useState(`${props.name} (recovered)`);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState(props.error);
  return (
    <div className="dialog-backdrop">
      <div className="dialog" role="alertdialog" aria-modal="true" aria-label="Workspace deleted">
        <h3>This workspace was deleted in another tab</h3>
        <p>
          Nothing more is saved here. This tab kept <strong>{props.kept.length}</strong> file{props.kept.length === 1 ? "" : "s"} as they were, with your unsaved edits; the git history was
          deleted with the workspace. Save them before you close this tab.
        </p>
        {error && (
          <p className="error" role="alert">
            {error}
          </p>
        )}
        <label>
          Name of the new workspace <input aria-label="Name of the new workspace" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <div className="actions">
          <a href="/">Back to workspaces</a>
          <button
            disabled={busy}
            onClick={async () => {
              setBusy(true);
              try {
                downloadBytes(await entriesToZip(props.kept), `${safeFileName(props.name)}.zip`, "application/zip");
              } catch (e) {
                setError(`Could not build the .zip: ${(e as Error).message}`);
              } finally {
                setBusy(false);
              }
            }}
          >
            Download .zip
          </button>
          <button
            className="primary"
            disabled={busy || !name.trim()}
            onClick={async () => {
              setBusy(true);
              try {
                const meta = await workspaceManager().create(name, { kind: "folder", entries: props.kept, detail: `recovered from ${props.name}` });
                location.assign(`/w/${meta.id}`);
              } catch (e) {
                setError(`Could not create the workspace: ${(e as Error).message}`);
                setBusy(false);
              }
            }}
          >
            Save as a new workspace
          </button>
        </div>
      </div>
    </div>
  );
}
