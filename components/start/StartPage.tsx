"use client";
import { useCallback, useEffect, useState } from "react";
import { workspaceManager } from "@/components/services/browser-env";
import type { WorkspaceMeta } from "@/lib/workspaces/registry";
import { WorkspaceList } from "./WorkspaceList";
import { CreateWorkspace } from "./CreateWorkspace";
import { ImportWorkspace } from "./ImportWorkspace";
import { CloneWorkspace } from "./CloneWorkspace";

/** `/`: the workspaces kept in this browser, and the ways to make a new one. */
export default function StartPage() {
  const [workspaces, setWorkspaces] = useState<WorkspaceMeta[] | undefined>();
  const [error, setError] = useState<string>();

  const reload = useCallback(async () => {
    try {
      setWorkspaces(await workspaceManager().list());
    } catch (e) {
      setError(`Cannot read the workspace list: ${(e as Error).message}`);
    }
  }, []);

  useEffect(() => {
    void reload();
  }, [reload]);

  const opened = (meta: WorkspaceMeta) => {
    void reload();
    location.assign(`/w/${meta.id}`);
  };

  return (
    <main className="start">
      <h1>Tabula</h1>
      <p className="muted">A web IDE with its coding agent in the tab. Your workspaces live in this browser (IndexedDB) and never leave it unless you export or share them.</p>
      {error && <div className="banner error" role="alert">{error}</div>}
      <section aria-labelledby="ws-heading">
        <h2 id="ws-heading">Workspaces</h2>
        <WorkspaceList workspaces={workspaces} onChanged={reload} />
      </section>
      <section aria-labelledby="new-heading">
        <h2 id="new-heading">New workspace</h2>
        <div className="cards">
          <CreateWorkspace onCreated={opened} />
          <ImportWorkspace onCreated={opened} />
          <CloneWorkspace onCreated={opened} />
        </div>
      </section>
    </main>
  );
}
