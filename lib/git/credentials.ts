/**
 * Credentials for git servers, kept in this browser per server (origin: scheme, host and port, so a
 * token given for https is never sent over http), the way model keys are kept: under their own storage
 * key (localStorage in the app, a Map in tests), never in the workspace, a checkpoint, a bundle, a share,
 * an event or a log. The agent, its shell and plugins see only what a git command prints; nothing here
 * prints a secret. `redact` scrubs any stored secret out of a text before it is shown.
 */
import type { AuthCallback, AuthFailureCallback, AuthSuccessCallback, GitAuth } from "isomorphic-git";

export const GIT_CREDENTIALS_KEY = "tabula.git-credentials.v1";

export type GitCredential = { username: string; password: string };

/** localStorage's shape (sync or async), as the provider settings take it. */
export type CredentialStorage = {
  getItem(key: string): string | null | undefined | Promise<string | null | undefined>;
  setItem(key: string, value: string): void | Promise<void>;
  removeItem(key: string): void | Promise<void>;
};

/** The server a URL belongs to, as credentials are keyed: `https://example.com:8443`. */
export function credentialOrigin(url: string): string {
  return new URL(url).origin;
}

export class GitCredentialStore {
  private entries: Record<string, GitCredential> | null = null;

  constructor(
    private readonly storage: CredentialStorage,
    private readonly key: string = GIT_CREDENTIALS_KEY,
  ) {}

  private async all(): Promise<Record<string, GitCredential>> {
    if (this.entries) return this.entries;
    let parsed: unknown = {};
    try {
      const raw = await this.storage.getItem(this.key);
      parsed = raw ? JSON.parse(raw) : {};
    } catch {
      parsed = {}; // corrupt entry: as if nothing were stored
    }
    const out: Record<string, GitCredential> = {};
    if (parsed && typeof parsed === "object")
      for (const [origin, c] of Object.entries(parsed as Record<string, unknown>)) {
        const cred = c as Partial<GitCredential> | null;
        if (cred && typeof cred.username === "string" && typeof cred.password === "string") out[origin] = { username: cred.username, password: cred.password };
      }
    this.entries = out;
    return out;
  }

  private async write(next: Record<string, GitCredential>): Promise<void> {
    this.entries = next;
    if (Object.keys(next).length === 0) await this.storage.removeItem(this.key);
    else await this.storage.setItem(this.key, JSON.stringify(next));
  }

  async get(url: string): Promise<GitCredential | undefined> {
    return (await this.all())[credentialOrigin(url)];
  }

  async set(url: string, credential: GitCredential): Promise<void> {
    await this.write({ ...(await this.all()), [credentialOrigin(url)]: { ...credential } });
  }

  async forget(url: string): Promise<void> {
    const next = { ...(await this.all()) };
    delete next[credentialOrigin(url)];
    await this.write(next);
  }

  /** The servers credentials are stored for (origins), for a settings list. */
  async origins(): Promise<string[]> {
    return Object.keys(await this.all()).sort();
  }

  /** Every stored secret (for scrubbing); short ones would match too much and are left out. */
  async secrets(): Promise<string[]> {
    return Object.values(await this.all())
      .map((c) => c.password)
      .filter((p) => p.length >= 6);
  }

  async redact(text: string): Promise<string> {
    let out = text;
    for (const s of await this.secrets()) out = out.split(s).join("[redacted]");
    return out;
  }
}

/** What the page asks the user when a server wants credentials. `null`: the user cancelled. */
export type CredentialRequest = {
  /** The server, as shown to the user (`example.com:8443`). */
  host: string;
  origin: string;
  /** The credentials given before were refused. */
  rejected: boolean;
  /** A username to prefill (the refused one, or git config's `credential.<url>.username`). */
  username?: string;
};
export type CredentialAnswer = GitCredential & { remember?: boolean };
export type CredentialPrompt = (request: CredentialRequest) => Promise<CredentialAnswer | null>;

export type AuthCallbacks = { onAuth: AuthCallback; onAuthFailure: AuthFailureCallback; onAuthSuccess: AuthSuccessCallback };

/**
 * isomorphic-git's auth hooks for one operation: the stored credentials for the server first, else ask;
 * when the server refuses them, forget them and ask again (isomorphic-git calls onAuthFailure once per
 * refusal and stops when it gets nothing); keep what worked, unless the user said not to.
 * Without a prompt (the terminal of a test, a headless run) a server wanting credentials just fails.
 */
export function credentialCallbacks(store: GitCredentialStore, prompt?: CredentialPrompt): AuthCallbacks {
  let pending: CredentialAnswer | null = null;
  let fromStore = false;
  const ask = async (url: string, rejected: boolean, username?: string): Promise<GitAuth> => {
    if (!prompt) return { cancel: true };
    const target = new URL(url);
    const answer = await prompt({ host: target.host, origin: target.origin, rejected, username });
    if (!answer) return { cancel: true };
    pending = answer;
    fromStore = false;
    return { username: answer.username, password: answer.password };
  };
  return {
    onAuth: async (url, auth) => {
      const stored = await store.get(url);
      if (stored) {
        pending = stored;
        fromStore = true;
        return { ...stored };
      }
      return ask(url, false, auth.username);
    },
    onAuthFailure: async (url, auth) => {
      if (fromStore) await store.forget(url);
      return ask(url, true, auth.username);
    },
    onAuthSuccess: async (url) => {
      if (pending && !fromStore && pending.remember !== false) await store.set(url, { username: pending.username, password: pending.password });
    },
  };
}
