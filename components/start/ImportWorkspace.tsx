"use client";
import { useRef, useState } from "react";
import { workspaceManager } from "@/components/services/browser-env";
import type { WorkspaceMeta } from "@/lib/workspaces/registry";
import { readZip } from "@/lib/workspaces/zip";
import { stripCommonRoot, type ImportEntry } from "@/lib/workspaces/import-entries";
import { ProgressBar } from "@/components/common/Dialog";

/** Import a .zip or a folder from disk into a new workspace, with a progress bar. */
export function ImportWorkspace(props: { onCreated: (meta: WorkspaceMeta) => void }) {
  const zipInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ done: number; total?: number; label: string }>();
  const [error, setError] = useState<string>();

  const run = async (name: string, kind: "zip" | "folder", read: () => Promise<ImportEntry[]>) => {
    setError(undefined);
    setProgress({ done: 0, label: "Reading" });
    try {
      const entries = stripCommonRoot(await read());
      const meta = await workspaceManager().create(name, { kind, entries, detail: name }, (done, total) =>
        setProgress({ done, total, label: `Importing ${done}/${total} files` }),
      );
      props.onCreated(meta);
    } catch (e) {
      setError(`Import failed: ${(e as Error).message} Nothing was created.`);
    } finally {
      setProgress(undefined);
    }
  };

  const onZip = (file: File | undefined) => {
    if (!file) return;
    void run(file.name.replace(/\.zip$/i, ""), "zip", async () => readZip(new Uint8Array(await file.arrayBuffer())));
  };

  const onFolder = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const list = Array.from(files);
    const root = (list[0].webkitRelativePath || list[0].name).split("/")[0];
    void run(root, "folder", () =>
      Promise.all(list.map(async (f) => ({ path: f.webkitRelativePath || f.name, data: new Uint8Array(await f.arrayBuffer()) }))),
    );
  };

  return (
    <div className="card">
      <h3 style={{ marginTop: 0 }}>Import</h3>
      <div className="row">
        <button onClick={() => zipInput.current?.click()} disabled={!!progress}>
          Import .zip…
        </button>
        <button onClick={() => folderInput.current?.click()} disabled={!!progress}>
          Import folder…
        </button>
      </div>
      <input ref={zipInput} type="file" accept=".zip,application/zip" hidden data-testid="import-zip-input" onChange={(e) => onZip(e.target.files?.[0])} />
      <input
        ref={folderInput}
        type="file"
        hidden
        data-testid="import-folder-input"
        webkitdirectory=""
        multiple
        onChange={(e) => onFolder(e.target.files)}
      />
      {progress && <ProgressBar {...progress} />}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
