"use client";
import { useEffect, useMemo, useState } from "react";
import type { AgentSession } from "@/lib/agent";
import type { Workspace } from "@/lib/checkpoints/engine";
import type { SharePlan } from "@/lib/share/package";
import { fragmentLink, publishToServer, revokeOnServer, SavedLinks, type PublishedLink } from "@/lib/share/links";
import { formatBytes } from "@/lib/editor/file-kind";
import { Dialog } from "@/components/common/Dialog";

const EXPIRY: [string, number | undefined][] = [
  ["Never", undefined],
  ["1 day", 86_400],
  ["7 days", 7 * 86_400],
  ["30 days", 30 * 86_400],
];

/**
 * Share a session: first a preview of exactly what would be published (transcript, checkpoints,
 * files, size, what was redacted, which .env files stay out), then — only on an explicit click —
 * the link: in the URL itself when small enough, else stored on this server.
 */
export function ShareDialog(props: { session: AgentSession; ws: Workspace; secrets: () => string[]; onClose: () => void }) {
  const [plan, setPlan] = useState<SharePlan>();
  const [error, setError] = useState<string>();
  const [includeEnv, setIncludeEnv] = useState<Set<string>>(new Set());
  const [includeImages, setIncludeImages] = useState(false);
  const [expiry, setExpiry] = useState(0);
  const [busy, setBusy] = useState(false);
  const [link, setLink] = useState<PublishedLink>();
  const [copied, setCopied] = useState(false);
  const saved = useMemo(() => new SavedLinks(localStorage), []);
  const [links, setLinks] = useState(() => saved.list());

  useEffect(() => {
    let cancelled = false;
    (async () => {
      await props.session.history.checkpointsSettled();
      const [engine, pkg] = await Promise.all([import("@/lib/checkpoints"), import("@/lib/share/package")]);
      const p = await pkg.planShare(engine, props.ws, props.session.toJSON(), props.secrets());
      if (!cancelled) setPlan(p);
    })().catch((e: Error) => !cancelled && setError(`Could not prepare the share: ${e.message}`));
    return () => {
      cancelled = true;
    };
  }, [props.session, props.ws]); // eslint-disable-line react-hooks/exhaustive-deps

  const publish = async () => {
    if (!plan) return;
    setBusy(true);
    setError(undefined);
    try {
      const pkg = await import("@/lib/share/package");
      const built = await pkg.buildShare(props.ws, plan, { includeEnv, includeImages });
      const frag = expiry === 0 ? fragmentLink(location.origin, built.zip) : undefined;
      const out = frag ? ({ kind: "fragment", url: frag } as const) : await publishToServer(location.origin, built.zip, { expiresInSeconds: EXPIRY[expiry]![1] });
      if (out.kind === "server") {
        saved.add({ id: out.id, url: out.url, deleteSecret: out.deleteSecret, title: props.session.state.title, createdAt: Date.now(), expiresAt: out.expiresAt });
        setLinks(saved.list());
      }
      setLink(out);
    } catch (e) {
      setError(`Nothing was published: ${(e as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  const revoke = async (id: string, secret: string) => {
    setError(undefined);
    try {
      await revokeOnServer(location.origin, id, secret);
      saved.markRevoked(id);
      setLinks(saved.list());
    } catch (e) {
      setError((e as Error).message);
    }
  };

  const redacted = plan ? plan.transcriptFindings.reduce((n, f) => n + f.count, 0) : 0;
  const envFiles = plan?.files.filter((f) => f.env) ?? [];
  const secretFiles = plan?.files.filter((f) => f.findings.length > 0 && !f.env) ?? [];
  const messages = plan?.session.messages.length ?? 0;

  return (
    <Dialog
      title="Share this session"
      onCancel={props.onClose}
      actions={
        link ? (
          <button className="primary" onClick={props.onClose}>
            Done
          </button>
        ) : (
          <>
            <button onClick={props.onClose}>Cancel</button>
            <button className="primary" disabled={!plan || busy} onClick={() => void publish()}>
              {busy ? "Publishing…" : "Publish link"}
            </button>
          </>
        )
      }
    >
      {!plan && !error && <p className="muted">Looking at what would be shared…</p>}
      {plan && !link && (
        <div className="share-preview" data-testid="share-preview">
          <p>
            Anyone with the link can read what is listed here. Nothing is sent until you click <strong>Publish link</strong>. Model keys are never part of a share.
          </p>
          <h4>Transcript</h4>
          <p data-testid="share-transcript">
            {messages} message{messages === 1 ? "" : "s"}
            {redacted > 0 ? ` · ${redacted} secret${redacted === 1 ? "" : "s"} redacted (${plan.transcriptFindings.map((f) => f.kind).join(", ")})` : " · no secrets found"}
          </p>
          {plan.images.size > 0 && (
            <label className={includeImages ? "error" : "muted"} data-testid="share-images">
              <input type="checkbox" checked={includeImages} onChange={(e) => setIncludeImages(e.target.checked)} />{" "}
              {(() => {
                const n = [...plan.images.values()].reduce((k, l) => k + l.length, 0);
                return includeImages
                  ? `${n} image${n === 1 ? "" : "s"} included (images are not scanned for secrets)`
                  : `Include the ${n} image${n === 1 ? "" : "s"} sent with prompts (left out: screenshots may show secrets no scan can find)`;
              })()}
            </label>
          )}
          <h4>Checkpoints ({plan.checkpoints.length})</h4>
          <p className="muted">Each as a snapshot of the files, without your repository&apos;s history.</p>
          <h4>
            Files ({plan.files.length - envFiles.length + includeEnv.size}, {formatBytes(plan.totalBytes)} before compression)
          </h4>
          <ul className="share-files" aria-label="Files in the share">
            {plan.files.map((f) => (
              <li key={f.path} data-testid="share-file">
                <code>{f.path}</code> <span className="muted">{formatBytes(f.size)}</span>
                {f.env ? (
                  <label className={includeEnv.has(f.path) ? "error" : "muted"}>
                    {" "}
                    <input
                      type="checkbox"
                      aria-label={`Include ${f.path}`}
                      checked={includeEnv.has(f.path)}
                      onChange={(e) => {
                        const next = new Set(includeEnv);
                        if (e.target.checked) next.add(f.path);
                        else next.delete(f.path);
                        setIncludeEnv(next);
                      }}
                    />{" "}
                    {includeEnv.has(f.path) ? "included (secrets still redacted)" : "left out (.env file)"}
                  </label>
                ) : f.findings.length > 0 ? (
                  <span className="muted"> · {f.findings.reduce((n, x) => n + x.count, 0)} secret(s) redacted</span>
                ) : null}
              </li>
            ))}
          </ul>
          {secretFiles.length > 0 && <p className="muted">Secrets found in {secretFiles.length} file(s) are replaced by [REDACTED:…] in the share; your files are not changed.</p>}
          <label>
            Link expires{" "}
            <select aria-label="Link expires" value={expiry} onChange={(e) => setExpiry(Number(e.target.value))}>
              {EXPIRY.map(([label], i) => (
                <option key={label} value={i}>
                  {label}
                </option>
              ))}
            </select>
          </label>
          <p className="muted">A small session without expiry travels inside the link itself; otherwise it is stored on this server until it expires or you revoke it.</p>
        </div>
      )}
      {link && (
        <div data-testid="share-result">
          <p role="status">
            {link.kind === "fragment"
              ? "Link made: the session is inside the link itself (nothing was uploaded). It cannot be revoked; anyone who has it can open it."
              : `Link made: stored on this server${link.expiresAt ? ` until ${new Date(link.expiresAt).toLocaleString()}` : ""}. You can revoke it below.`}
          </p>
          <div className="row">
            <input readOnly aria-label="Share link" value={link.url} style={{ flex: 1 }} onFocus={(e) => e.target.select()} />
            <button
              onClick={() =>
                void navigator.clipboard
                  ?.writeText(link.url)
                  .then(() => setCopied(true))
                  .catch(() => undefined)
              }
            >
              {copied ? "Copied" : "Copy"}
            </button>
          </div>
        </div>
      )}
      {links.length > 0 && (
        <>
          <h4>Links you shared from this browser</h4>
          <ul aria-label="Links you shared">
            {links.slice(0, 10).map((l) => (
              <li key={l.id}>
                <a href={l.url} target="_blank" rel="noreferrer">
                  {l.title || l.id}
                </a>{" "}
                <span className="muted">{new Date(l.createdAt).toLocaleString()}</span>{" "}
                {l.revoked ? (
                  <span className="muted">revoked</span>
                ) : (
                  <button className="link" onClick={() => void revoke(l.id, l.deleteSecret)} aria-label={`Revoke ${l.url}`}>
                    Revoke
                  </button>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
