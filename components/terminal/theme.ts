import { workbenchTheme } from "@/lib/workbench/theme";

/** xterm's colours for the workbench's theme now (its background is the panel's). */
export function terminalTheme(): { background: string; foreground: string; cursor?: string; selectionBackground?: string } {
  return workbenchTheme().dark ? { background: "#1e1f22", foreground: "#d7dae0" } : { background: "#ffffff", foreground: "#1f2328", cursor: "#1f2328", selectionBackground: "#b6d3ff" };
}
