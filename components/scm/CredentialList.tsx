"use client";
import { useEffect, useState } from "react";
import { gitCredentialStore } from "./git-transport";

/**
 * The git servers this browser keeps credentials for, each with Forget (the secret itself is
 * never shown). The sign-in dialog asks again the next time a forgotten server wants them.
 */
export function CredentialList() {
  const [origins, setOrigins] = useState<string[]>();
  const [error, setError] = useState<string>();
  const load = () =>
    gitCredentialStore()
      .origins()
      .then(setOrigins, (e) => setError((e as Error).message));
  useEffect(() => {
    void load();
  }, []);
  if (!origins) return null;
  return (
    <details className="scm-credentials">
      <summary>Git credentials ({origins.length})</summary>
      {error && (
        <div className="banner error" role="alert">
          {error}
        </div>
      )}
      {origins.length === 0 ? (
        <div className="muted">None kept in this browser. A server that asks gets the sign-in dialog.</div>
      ) : (
        <ul aria-label="Git credentials" className="scm-files">
          {origins.map((o) => (
            <li key={o}>
              <span className="mono scm-file">{o}</span>
              <button
                className="link"
                aria-label={`Forget the credentials for ${o}`}
                onClick={() =>
                  void gitCredentialStore()
                    .forget(o)
                    .then(load, (e) => setError((e as Error).message))
                }
              >
                Forget
              </button>
            </li>
          ))}
        </ul>
      )}
    </details>
  );
}
