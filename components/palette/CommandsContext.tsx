"use client";
import { createContext, useContext, useEffect, useRef, useState } from "react";
import { CommandRegistry, type Command } from "@/lib/workbench/commands";
import { RecentList } from "@/lib/workbench/recent";

/** The workbench's command registry, for the components inside it that contribute commands. */
export const CommandsContext = createContext<CommandRegistry | null>(null);

const RECENT_COMMANDS_KEY = "tabula.recentCommands";

/** One registry per workbench, remembering recently run commands across reloads. */
export function useCommandRegistry(): CommandRegistry {
  const [registry] = useState(
    () =>
      new CommandRegistry({
        recent: RecentList.parse(readStorage(RECENT_COMMANDS_KEY), 30),
        onRecentChange: (recent) => writeStorage(RECENT_COMMANDS_KEY, recent.serialize()),
      }),
  );
  return registry;
}

/** A command as a component declares it: `enabled` is a value of this render, not a function. */
export interface CommandSpec extends Omit<Command, "enabled"> {
  enabled?: boolean;
}

/**
 * Registers `specs` while the calling component is mounted. The registration changes only when the
 * set of ids, titles or keys does; `run` and `enabled` are read from the latest render, so a
 * component may declare its commands inline on every render without churning the registry.
 */
export function useRegisterCommands(registry: CommandRegistry | null, specs: CommandSpec[]): void {
  const latest = useRef(specs);
  useEffect(() => {
    latest.current = specs;
  });
  const shape = specs.map((s) => [s.id, s.category, s.title, ...(s.keys ?? [])].join("\u0000")).join("\u0001");
  useEffect(() => {
    if (!registry) return;
    const current = (id: string) => latest.current.find((s) => s.id === id);
    return registry.register(
      ...latest.current.map(
        (s): Command => ({
          id: s.id,
          title: s.title,
          category: s.category,
          keys: s.keys,
          remember: s.remember,
          enabled: () => {
            const now = current(s.id);
            return !!now && now.enabled !== false;
          },
          run: (ctx) => current(s.id)?.run(ctx),
        }),
      ),
    );
  }, [registry, shape]); // eslint-disable-line react-hooks/exhaustive-deps
}

/** Registers commands into the workbench's registry (none outside a workbench). */
export function useCommands(specs: CommandSpec[]): void {
  useRegisterCommands(useContext(CommandsContext), specs);
}

export function readStorage(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null; // storage disabled: start empty rather than fail
  }
}

export function writeStorage(key: string, value: string): void {
  try {
    localStorage.setItem(key, value);
  } catch {
    // Full or disabled storage costs only the memory of recent use.
  }
}
