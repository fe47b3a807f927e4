"use client";
/**
 * The tab's title is one value derived from two facts — which workspace is open, and whether the
 * agent waits for the user — written in one place. Two effects each editing `document.title` raced:
 * whichever ran last (or Next's own metadata title landing after hydration) decided what the tab
 * showed. Here every change recomputes the whole title, and a title written behind our back (the
 * route's metadata streaming in late) is put back to the derived value.
 */
const WAITING_PREFIX = "(Waiting for you) ";
const APP_NAME = "Tabula";

let workspaceName: string | undefined;
let waiting = false;
let observer: MutationObserver | undefined;

export function tabTitle(name: string | undefined, isWaiting: boolean): string {
  return (isWaiting ? WAITING_PREFIX : "") + (name ? `${name} — ${APP_NAME}` : APP_NAME);
}

function apply(): void {
  const wanted = tabTitle(workspaceName, waiting);
  if (document.title !== wanted) document.title = wanted;
}

function watch(): void {
  const owned = workspaceName !== undefined || waiting;
  if (owned && !observer) {
    observer = new MutationObserver(apply);
    observer.observe(document.head, { childList: true, subtree: true, characterData: true });
  } else if (!owned && observer) {
    observer.disconnect();
    observer = undefined;
  }
}

export function setTabWorkspaceName(name: string | undefined): void {
  workspaceName = name;
  apply();
  watch();
}

export function setTabWaiting(isWaiting: boolean): void {
  waiting = isWaiting;
  apply();
  watch();
}
