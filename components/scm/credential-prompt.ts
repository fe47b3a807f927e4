"use client";
/**
 * The page's one queue of credential requests: lib/git's auth hooks call `askForCredentials`, the
 * mounted `<CredentialPromptHost/>` shows the dialog for the first request and settles it. With no
 * host mounted (nothing can ask), requests are answered "cancelled" at once rather than hanging.
 */
import type { CredentialAnswer, CredentialRequest } from "@/lib/git/credentials";

type Pending = { request: CredentialRequest; settle: (a: CredentialAnswer | null) => void };

const queue: Pending[] = [];
const listeners = new Set<() => void>();
let hosts = 0;

function changed(): void {
  for (const l of listeners) l();
}

export function askForCredentials(request: CredentialRequest): Promise<CredentialAnswer | null> {
  if (hosts === 0) return Promise.resolve(null);
  return new Promise((settle) => {
    queue.push({ request, settle });
    changed();
  });
}

export function currentCredentialRequest(): Pending | undefined {
  return queue[0];
}

export function answerCredentialRequest(answer: CredentialAnswer | null): void {
  const first = queue.shift();
  first?.settle(answer);
  changed();
}

/** A host registers while mounted; the returned function unregisters (and cancels what it leaves). */
export function attachCredentialHost(listener: () => void): () => void {
  hosts++;
  listeners.add(listener);
  return () => {
    hosts--;
    listeners.delete(listener);
    if (hosts === 0) while (queue.length) queue.shift()!.settle(null);
  };
}
