"use client";
import { useState } from "react";
import { proxyEndpoint, workspaceManager } from "@/components/services/browser-env";
import type { WorkspaceMeta } from "@/lib/workspaces/registry";
import { validateCloneUrl } from "@/lib/workspaces/clone";
import { ProgressBar } from "@/components/common/Dialog";
import { CredentialPromptHost } from "@/components/scm/CredentialDialog";
import { browserGitAuth } from "@/components/scm/git-transport";

/** Clone a repository over HTTP through the app's own proxy; a server that wants credentials gets them asked for. */
export function CloneWorkspace(props: { onCreated: (meta: WorkspaceMeta) => void }) {
  const [url, setUrl] = useState("");
  const [depth, setDepth] = useState("");
  const [progress, setProgress] = useState<{ done: number; total?: number; label: string }>();
  const [error, setError] = useState<string>();

  const clone = async (e: React.FormEvent) => {
    e.preventDefault();
    setError(undefined);
    let target: string;
    try {
      target = validateCloneUrl(url);
    } catch (err) {
      setError((err as Error).message);
      return;
    }
    const name = decodeURIComponent(new URL(target).pathname.split("/").filter(Boolean).pop()?.replace(/\.git$/, "") || "repository");
    setProgress({ done: 0, label: "Connecting" });
    try {
      const meta = await workspaceManager().create(name, {
        kind: "clone",
        url: target,
        proxyEndpoint: proxyEndpoint(),
        auth: browserGitAuth(),
        depth: depth ? Number(depth) : undefined,
        onCloneProgress: (p) => setProgress({ done: p.loaded, total: p.total || undefined, label: p.phase }),
      });
      props.onCreated(meta);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setProgress(undefined);
    }
  };

  return (
    <>
      {/* Outside the form: the dialog's own form must not submit this one. */}
      <CredentialPromptHost />
      <form className="card" onSubmit={clone} aria-label="Clone repository">
        <h3 style={{ marginTop: 0 }}>Clone</h3>
        <div className="row">
          <input type="url" placeholder="https://host/owner/repo.git" aria-label="Repository URL" value={url} onChange={(e) => setUrl(e.target.value)} style={{ flex: 1 }} />
          <select aria-label="History" value={depth} onChange={(e) => setDepth(e.target.value)} title="How much history to clone">
            <option value="">Full history</option>
            <option value="1">Last commit</option>
            <option value="10">Last 10 commits</option>
            <option value="100">Last 100 commits</option>
          </select>
          <button className="primary" type="submit" disabled={!!progress || !url}>
            Clone
          </button>
        </div>
        {progress && <ProgressBar {...progress} />}
        {error && <p className="error" role="alert">{error}</p>}
      </form>
    </>
  );
}
