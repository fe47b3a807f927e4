"use client";
import { useCallback, useMemo, useRef, useState, useSyncExternalStore } from "react";
import type { AskOptions, CommandContext, CommandRegistry, PickOptions } from "@/lib/workbench/commands";
import { fuzzyMatch } from "@/lib/search/fuzzy";
import { PickList, highlight } from "./PickList";
import { useRegisterCommands } from "./CommandsContext";
import { useKeybindings } from "./useKeybindings";

type Mode =
  | { kind: "closed" }
  | { kind: "commands" }
  | { kind: "ask"; options: AskOptions; resolve: (value: string | undefined) => void }
  | { kind: "pick"; options: PickOptions; resolve: (id: string | undefined) => void };

const SHOW_COMMANDS = "workbench.showCommands";

function useRegistryVersion(registry: CommandRegistry): number {
  const version = useRef(0);
  return useSyncExternalStore(
    useCallback(
      (cb: () => void) =>
        registry.subscribe(() => {
          version.current++;
          cb();
        }),
      [registry],
    ),
    () => version.current,
    () => 0,
  );
}

/**
 * The command palette (Ctrl+Shift+P, F1): every registered command with its keybinding, fuzzy-filtered,
 * recently run first. It also dispatches the commands' keybindings, and asks their questions (a name,
 * a choice) in the same box, so a command run by its key asks the same way as one run from the list.
 */
export function CommandPalette(props: { registry: CommandRegistry; onError: (e: unknown) => void }) {
  const { registry } = props;
  const [mode, setMode] = useState<Mode>({ kind: "closed" });
  const [query, setQuery] = useState("");
  const returnFocus = useRef<HTMLElement | null>(null);
  const version = useRegistryVersion(registry);

  /** Opens the box in a mode, remembering where focus was so closing can put it back. */
  const show = useCallback((next: Mode, initialQuery = "") => {
    setMode((current) => {
      if (current.kind === "closed") {
        const active = document.activeElement;
        returnFocus.current = active instanceof HTMLElement && active !== document.body ? active : null;
      } else if (current.kind === "ask" || current.kind === "pick") current.resolve(undefined);
      return next;
    });
    setQuery(initialQuery);
  }, []);

  /** Closes the box; a question still open is answered "dismissed" unless `answer` is given. */
  const close = useCallback((answer?: string) => {
    setMode((current) => {
      if (current.kind === "ask" || current.kind === "pick") current.resolve(answer);
      return { kind: "closed" };
    });
    // Back to the editor (or wherever the person was) before a command moves focus on purpose.
    const target = returnFocus.current;
    returnFocus.current = null;
    if (target?.isConnected) target.focus();
  }, []);

  const ctx = useMemo<CommandContext>(
    () => ({
      ask: (options) => new Promise((resolve) => show({ kind: "ask", options, resolve }, options.value ?? "")),
      pick: (options) => new Promise((resolve) => show({ kind: "pick", options, resolve })),
    }),
    [show],
  );

  const run = useCallback(
    (id: string) => {
      close();
      registry.run(id, ctx).catch(props.onError);
    },
    [close, registry, ctx, props.onError],
  );

  useRegisterCommands(registry, [{ id: SHOW_COMMANDS, title: "Show All Commands", category: "View", keys: ["Ctrl+Shift+P", "F1"], remember: false, run: () => show({ kind: "commands" }) }]);
  // A key that runs another command first dismisses whatever the box was showing.
  useKeybindings(registry, ctx, props.onError, (id) => id !== SHOW_COMMANDS && mode.kind !== "closed" && close());

  const entries = useMemo(
    () => (mode.kind === "commands" ? registry.search(query) : []),
    [mode.kind, query, registry, version], // eslint-disable-line react-hooks/exhaustive-deps
  );

  if (mode.kind === "closed") return null;

  if (mode.kind === "commands")
    return (
      <PickList
        label="Command palette"
        placeholder="Type the name of a command to run"
        query={query}
        onQuery={setQuery}
        empty="No matching commands"
        rows={entries.map((e) => ({
          key: e.command.id,
          primary: highlight(e.label, e.positions),
          secondary: e.recent ? "recently used" : undefined,
          hint: e.command.keys?.length ? e.command.keys.map((k) => <kbd key={k}>{k}</kbd>) : undefined,
        }))}
        onPick={(i) => entries[i] && run(entries[i].command.id)}
        onClose={() => close()}
      />
    );

  if (mode.kind === "ask") {
    const problem = query ? mode.options.validate?.(query) : undefined;
    return (
      <PickList
        label={mode.options.title}
        placeholder={mode.options.placeholder ?? mode.options.title}
        query={query}
        onQuery={setQuery}
        rows={[]}
        message={problem ?? `${mode.options.title} (Enter to confirm, Escape to cancel)`}
        error={!!problem}
        onPick={() => {
          const value = query.trim();
          if (!value || mode.options.validate?.(value)) return;
          close(value);
        }}
        onClose={() => close()}
      />
    );
  }

  const items = mode.options.items
    .map((item) => ({ item, match: fuzzyMatch(query, item.label) }))
    .filter((x) => x.match)
    .sort((a, b) => (query ? b.match!.score - a.match!.score : 0));
  return (
    <PickList
      label={mode.options.title}
      placeholder={mode.options.title}
      query={query}
      onQuery={setQuery}
      empty="Nothing matches"
      rows={items.map(({ item, match }) => ({ key: item.id, primary: highlight(item.label, match!.positions), secondary: item.detail }))}
      onPick={(i) => {
        if (items[i]) close(items[i].item.id);
      }}
      onClose={() => close()}
    />
  );
}
