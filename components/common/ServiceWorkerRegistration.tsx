"use client";
import { useEffect } from "react";

/**
 * Registers the offline service worker (lib/offline/service-worker.ts) in production builds,
 * then hands it the same-origin files this page loaded before it was in control, so the first
 * visit's chunks are kept for offline use too. `next dev` gets none: its chunks change on
 * every edit.
 */
export function ServiceWorkerRegistration() {
  useEffect(() => {
    if (process.env.NODE_ENV !== "production" || !("serviceWorker" in navigator)) return;
    let cancelled = false;
    (async () => {
      try {
        await navigator.serviceWorker.register("/sw.js", { scope: "/" });
        const ready = await navigator.serviceWorker.ready;
        if (cancelled || !ready.active) return;
        const urls = performance
          .getEntriesByType("resource")
          .map((e) => e.name)
          .filter((u) => u.startsWith(location.origin));
        const channel = new MessageChannel();
        channel.port1.onmessage = (e) => {
          if (e.data?.type === "cached") document.documentElement.dataset.offlineReady = "true";
        };
        ready.active.postMessage({ type: "cache-urls", urls }, [channel.port2]);
      } catch (err) {
        // Without a worker the app works the same online; only offline use is lost.
        console.warn("Service worker not registered:", err);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);
  return null;
}
