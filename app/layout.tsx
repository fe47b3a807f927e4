import type { Metadata, Viewport } from "next";
import "./globals.css";
import { ServiceWorkerRegistration } from "@/components/common/ServiceWorkerRegistration";

export const metadata: Metadata = {
  title: "Tabula",
  description: "A web IDE whose coding agent lives in the browser tab.",
  icons: { apple: "/icons/apple-touch-icon.png" },
};

export const viewport: Viewport = { colorScheme: "light dark", themeColor: "#1e1f22" };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        {children}
        <ServiceWorkerRegistration />
      </body>
    </html>
  );
}
