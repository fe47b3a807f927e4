"use client";
import { useRef, useState } from "react";
import { workspaceManager } from "@/components/services/browser-env";
import type { WorkspaceMeta } from "@/lib/workspaces/registry";
import { inspectZip, judgeZipSize, readZip } from "@/lib/workspaces/zip";
import { stripCommonRoot, type ImportEntry } from "@/lib/workspaces/import-entries";
import { ConfirmDialog, ProgressBar } from "@/components/common/Dialog";
import { SessionStore } from "@/lib/sessions";
import { ProviderSettingsStore } from "@/lib/providers";
import type { SessionImport } from "@/lib/share/session-bundle";
import { readDropped, takeFromTransfer } from "@/lib/workspaces/dropped-entries";

/**
 * Import a .zip, a folder, or a session exported as a git bundle (files, checkpoints and the
 * conversation, which continues in the new workspace) into a new workspace.
 */
export function ImportWorkspace(props: { onCreated: (meta: WorkspaceMeta) => void }) {
  const zipInput = useRef<HTMLInputElement>(null);
  const bundleInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);
  const [progress, setProgress] = useState<{ done: number; total?: number; label: string }>();
  const [error, setError] = useState<string>();
  /** Bring the files the project's .gitignore files ignore (node_modules, build output) too. */
  const [includeIgnored, setIncludeIgnored] = useState(false);
  /** A large archive waits here until the user has seen its size and said yes. */
  const [largeZip, setLargeZip] = useState<{ name: string; bytes: Uint8Array; message: string }>();
  const [dragging, setDragging] = useState(false);

  const run = async (name: string, kind: "zip" | "folder", read: () => Promise<ImportEntry[]>) => {
    setError(undefined);
    setProgress({ done: 0, label: "Reading" });
    try {
      const entries = stripCommonRoot(await read());
      const meta = await workspaceManager().create(name, { kind, entries, detail: name, includeIgnored }, (done, total) =>
        setProgress({ done, total, label: `Importing ${done}/${total} files` }),
      );
      props.onCreated(meta);
    } catch (e) {
      setError(`Import failed: ${(e as Error).message} Nothing was created.`);
    } finally {
      setProgress(undefined);
    }
  };

  const importZip = (name: string, bytes: Uint8Array) => void run(name, "zip", () => readZip(bytes));

  // The size is judged from the archive's directory before anything is expanded.
  const onZip = async (file: File | undefined) => {
    if (!file) return;
    setError(undefined);
    const name = file.name.replace(/\.zip$/i, "");
    try {
      const bytes = new Uint8Array(await file.arrayBuffer());
      const verdict = judgeZipSize(inspectZip(bytes));
      if (verdict.verdict === "refuse") setError(`Import refused: ${verdict.message} Nothing was created.`);
      else if (verdict.verdict === "confirm") setLargeZip({ name, bytes, message: verdict.message });
      else importZip(name, bytes);
    } catch (e) {
      setError(`Import failed: ${(e as Error).message} Nothing was created.`);
    }
  };

  const onBundle = async (file: File | undefined) => {
    if (!file) return;
    setError(undefined);
    setProgress({ done: 0, label: "Importing the session" });
    try {
      let imported: SessionImport | undefined;
      const name = file.name.replace(/\.bundle$/i, "");
      const meta = await workspaceManager().create(name, { kind: "bundle", bytes: new Uint8Array(await file.arrayBuffer()), detail: file.name, onImported: (r) => (imported = r) });
      if (imported?.session) {
        const settings = new ProviderSettingsStore(localStorage);
        const store = new SessionStore(indexedDB, { secrets: () => settings.secrets() });
        await store.save({ ...imported.session, workspaceId: meta.id, updatedAt: Date.now() });
      }
      props.onCreated(meta);
    } catch (e) {
      setError(`Import failed: ${(e as Error).message} Nothing was created.`);
    } finally {
      setProgress(undefined);
    }
  };

  const onFolder = (files: FileList | null) => {
    if (!files || files.length === 0) return;
    const list = Array.from(files);
    const root = (list[0].webkitRelativePath || list[0].name).split("/")[0];
    void run(root, "folder", () =>
      Promise.all(list.map(async (f) => ({ path: f.webkitRelativePath || f.name, data: new Uint8Array(await f.arrayBuffer()) }))),
    );
  };

  /** Dropped from the desktop: one .zip is imported as an archive; a folder (or loose files) as a folder. */
  const onDrop = (dt: DataTransfer) => {
    const files = Array.from(dt.files);
    if (files.length === 1 && /\.zip$/i.test(files[0]!.name)) {
      void onZip(files[0]);
      return;
    }
    if (files.length === 1 && /\.bundle$/i.test(files[0]!.name)) {
      void onBundle(files[0]);
      return;
    }
    const dropped = takeFromTransfer(dt); // now: the browser empties the items once this handler returns
    if (dropped.length === 0) return;
    const name = dropped.length === 1 ? dropped[0]!.name : "Dropped files";
    void run(name, "folder", () => readDropped(dropped));
  };

  return (
    <div
      className={`card${dragging ? " drop-target" : ""}`}
      role="region"
      aria-label="Import"
      onDragOver={(e) => {
        if (progress || !e.dataTransfer.types.includes("Files")) return;
        e.preventDefault();
        e.dataTransfer.dropEffect = "copy";
        setDragging(true);
      }}
      onDragLeave={(e) => {
        if (e.target === e.currentTarget) setDragging(false);
      }}
      onDrop={(e) => {
        e.preventDefault();
        setDragging(false);
        onDrop(e.dataTransfer);
      }}
    >
      <h3 style={{ marginTop: 0 }}>Import</h3>
      <div className="row">
        <button onClick={() => zipInput.current?.click()} disabled={!!progress}>
          Import .zip…
        </button>
        <button onClick={() => folderInput.current?.click()} disabled={!!progress}>
          Import folder…
        </button>
        <button onClick={() => bundleInput.current?.click()} disabled={!!progress} title="A session exported from Tabula (git bundle): files, checkpoints and conversation">
          Import session (.bundle)…
        </button>
      </div>
      <p className="muted" style={{ margin: "6px 0 0" }}>
        Or drop a folder, files or a .zip here. A folder or archive holding <code>.git</code> keeps its history, branches and remotes.{" "}
        <label>
          <input type="checkbox" checked={includeIgnored} onChange={(e) => setIncludeIgnored(e.target.checked)} /> Include ignored files (node_modules, build output…)
        </label>
      </p>
      <input ref={bundleInput} type="file" accept=".bundle" hidden data-testid="import-bundle-input" onChange={(e) => void onBundle(e.target.files?.[0])} />
      <input
        ref={zipInput}
        type="file"
        accept=".zip,application/zip"
        hidden
        data-testid="import-zip-input"
        onChange={(e) => {
          void onZip(e.target.files?.[0]);
          e.target.value = ""; // the same file can be chosen again after a Cancel
        }}
      />
      <input
        ref={folderInput}
        type="file"
        hidden
        data-testid="import-folder-input"
        webkitdirectory=""
        multiple
        onChange={(e) => onFolder(e.target.files)}
      />
      {largeZip && (
        <ConfirmDialog
          title="Import a large archive?"
          message={largeZip.message}
          confirmLabel="Import"
          onCancel={() => setLargeZip(undefined)}
          onConfirm={() => {
            setLargeZip(undefined);
            importZip(largeZip.name, largeZip.bytes);
          }}
        />
      )}
      {progress && <ProgressBar {...progress} />}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
