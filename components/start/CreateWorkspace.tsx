"use client";
import { useState } from "react";
import { workspaceManager } from "@/components/services/browser-env";
import type { WorkspaceMeta } from "@/lib/workspaces/registry";

export function CreateWorkspace(props: { onCreated: (meta: WorkspaceMeta) => void }) {
  const [name, setName] = useState("");
  const [template, setTemplate] = useState<"sample" | "empty">("sample");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string>();

  const create = async (e: React.FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      props.onCreated(await workspaceManager().create(name, { kind: template }));
    } catch (err) {
      setError((err as Error).message);
      setBusy(false);
    }
  };

  return (
    <form className="card" onSubmit={create} aria-label="Create workspace">
      <h3 style={{ marginTop: 0 }}>Create</h3>
      <div className="row">
        <input type="text" placeholder="Workspace name" aria-label="Workspace name" value={name} onChange={(e) => setName(e.target.value)} />
        <select aria-label="Template" value={template} onChange={(e) => setTemplate(e.target.value as "sample" | "empty")}>
          <option value="sample">Sample project</option>
          <option value="empty">Empty</option>
        </select>
        <button className="primary" type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create"}
        </button>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
    </form>
  );
}
