"use client";
import { useEffect, useState } from "react";
import { Dialog } from "@/components/common/Dialog";
import type { CredentialAnswer, CredentialRequest } from "@/lib/git/credentials";
import { answerCredentialRequest, attachCredentialHost, currentCredentialRequest } from "./credential-prompt";

/** Asks for a git server's username and token (or password), saying which server it is for. */
export function CredentialDialog(props: { request: CredentialRequest; onAnswer: (a: CredentialAnswer | null) => void }) {
  const [username, setUsername] = useState(props.request.username ?? "");
  const [password, setPassword] = useState("");
  const [remember, setRemember] = useState(true);
  const submit = (e?: React.FormEvent) => {
    e?.preventDefault();
    if (!username || !password) return;
    props.onAnswer({ username, password, remember });
  };
  return (
    <Dialog
      title={`Sign in to ${props.request.host}`}
      label="Git credentials"
      onCancel={() => props.onAnswer(null)}
      actions={
        <>
          <button type="button" onClick={() => props.onAnswer(null)}>
            Cancel
          </button>
          <button type="submit" form="git-credentials" className="primary" disabled={!username || !password}>
            Sign in
          </button>
        </>
      }
    >
      <form id="git-credentials" onSubmit={submit} style={{ display: "flex", flexDirection: "column", gap: 8 }}>
        <p>
          {props.request.rejected ? (
            <span role="alert">{props.request.host} did not accept those credentials. Try again.</span>
          ) : (
            <>The git server at <strong>{props.request.origin}</strong> asks for credentials.</>
          )}
        </p>
        <label>
          Username
          <input autoComplete="username" value={username} onChange={(e) => setUsername(e.target.value)} />
        </label>
        <label>
          Token or password
          <input type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
        </label>
        <label>
          <input type="checkbox" checked={remember} onChange={(e) => setRemember(e.target.checked)} /> Remember for {props.request.host} in this browser
        </label>
        <p className="muted" style={{ fontSize: 12 }}>
          Kept only in this browser, never in the workspace, its history, shares or the agent&apos;s view.
        </p>
      </form>
    </Dialog>
  );
}

/** Mount once per page: shows the dialog whenever a git operation needs credentials. */
export function CredentialPromptHost() {
  const [, setVersion] = useState(0);
  useEffect(() => attachCredentialHost(() => setVersion((v) => v + 1)), []);
  const pending = currentCredentialRequest();
  if (!pending) return null;
  return <CredentialDialog key={`${pending.request.origin}:${pending.request.rejected}`} request={pending.request} onAnswer={answerCredentialRequest} />;
}
