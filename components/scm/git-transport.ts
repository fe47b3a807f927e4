"use client";
/** The browser's way to a git server: isomorphic-git's client through the app's proxy, credentials asked for in a dialog. */
import { proxyEndpoint } from "@/components/services/browser-env";
import { credentialCallbacks, GitCredentialStore, type AuthCallbacks } from "@/lib/git/credentials";
import type { Transport } from "@/lib/git/remote-transfer";
import { proxiedHttp } from "@/lib/workspaces/clone";
import { askForCredentials } from "./credential-prompt";

let store: GitCredentialStore | undefined;

export function gitCredentialStore(): GitCredentialStore {
  store ??= new GitCredentialStore(localStorage);
  return store;
}

/** Fresh hooks per operation: each keeps what it was given until the server accepts it. */
export function browserGitAuth(): AuthCallbacks {
  return credentialCallbacks(gitCredentialStore(), askForCredentials);
}

export function browserGitTransport(extra: Partial<Transport> = {}): Transport {
  return { http: proxiedHttp(proxyEndpoint()), auth: browserGitAuth(), ...extra };
}
