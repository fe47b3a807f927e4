"use client";
import { useEffect, useRef } from "react";
import type { CommandContext, CommandRegistry } from "@/lib/workbench/commands";

/**
 * One listener for every command's keybindings, in the capture phase on the window so Monaco, xterm
 * and text fields see none of the keys a command takes (F1 would otherwise open Monaco's own list).
 */
export function useKeybindings(registry: CommandRegistry, ctx: CommandContext, onError: (e: unknown) => void, beforeRun?: (id: string) => void): void {
  const latest = useRef({ ctx, onError, beforeRun });
  useEffect(() => {
    latest.current = { ctx, onError, beforeRun };
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.isComposing) return;
      const command = registry.forKey(e);
      if (!command) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.repeat) return; // holding a key runs its command once
      latest.current.beforeRun?.(command.id);
      registry.run(command.id, latest.current.ctx).catch(latest.current.onError);
    };
    addEventListener("keydown", onKey, true);
    return () => removeEventListener("keydown", onKey, true);
  }, [registry]);
}
