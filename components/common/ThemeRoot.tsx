"use client";
import { useEffect } from "react";
import { workbenchTheme } from "@/lib/workbench/theme";

/**
 * Puts the chosen theme on <html data-theme> (the CSS's light-dark() colours follow it); with
 * "system" the attribute goes and the OS decides. Renders nothing.
 */
export function ThemeRoot() {
  useEffect(() => {
    const theme = workbenchTheme();
    const apply = () => {
      if (theme.choice === "system") delete document.documentElement.dataset.theme;
      else document.documentElement.dataset.theme = theme.choice;
    };
    apply();
    return theme.subscribe(apply);
  }, []);
  return null;
}
