import type { MetadataRoute } from "next";

/** Installable: Chrome and Edge offer "Install Tabula"; the service worker (/sw.js) makes it open offline. */
export default function manifest(): MetadataRoute.Manifest {
  return {
    name: "Tabula",
    short_name: "Tabula",
    description: "A web IDE whose coding agent lives in the browser tab.",
    start_url: "/",
    scope: "/",
    display: "standalone",
    background_color: "#1e1f22",
    theme_color: "#1e1f22",
    icons: [
      { src: "/icons/icon-192.png", sizes: "192x192", type: "image/png", purpose: "any" },
      { src: "/icons/icon-512.png", sizes: "512x512", type: "image/png", purpose: "any" },
      { src: "/icons/maskable-192.png", sizes: "192x192", type: "image/png", purpose: "maskable" },
      { src: "/icons/maskable-512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
    ],
  };
}
