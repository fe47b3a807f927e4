import type { Metadata, Viewport } from "next";
import "./globals.css";
import { ServiceWorkerRegistration } from "@/components/common/ServiceWorkerRegistration";
import { ThemeRoot } from "@/components/common/ThemeRoot";
import { DropGuard } from "@/components/common/DropGuard";

export const metadata: Metadata = {
  title: "Tabula",
  description: "A web IDE whose coding agent lives in the browser tab.",
  icons: { apple: "/icons/apple-touch-icon.png" },
};

export const viewport: Viewport = { colorScheme: "light dark", themeColor: "#1e1f22" };

/**
 * Sets the chosen theme before the first paint (ThemeRoot keeps it in step afterwards): without
 * it a light choice on a dark OS flashes dark on every load. Same key and values as
 * lib/workbench/theme.ts; anything else leaves the system's.
 */
const THEME_BEFORE_PAINT = `try{var t=localStorage.getItem("tabula.theme");if(t==="light"||t==="dark")document.documentElement.dataset.theme=t}catch(e){}`;

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_BEFORE_PAINT }} />
      </head>
      <body>
        {children}
        <ServiceWorkerRegistration />
        <ThemeRoot />
        <DropGuard />
      </body>
    </html>
  );
}
