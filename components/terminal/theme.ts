import { workbenchTheme } from "@/lib/workbench/theme";

/** Dark now: the chosen theme, or the system's (lib/workbench/theme.ts). */
export function prefersDark(): boolean {
  return workbenchTheme().dark;
}

/** xterm's colours for the light and the dark workbench (its background is the panel's). */
export function terminalTheme(dark: boolean): { background: string; foreground: string; cursor?: string; selectionBackground?: string } {
  return dark ? { background: "#1e1f22", foreground: "#d7dae0" } : { background: "#ffffff", foreground: "#1f2328", cursor: "#1f2328", selectionBackground: "#b6d3ff" };
}
