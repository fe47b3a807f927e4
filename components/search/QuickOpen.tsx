"use client";
import { useDeferredValue, useMemo, useState } from "react";
import { parseQuickOpenQuery, rankQuickOpen } from "@/lib/search/quick-open";
import { PickList, highlight } from "@/components/palette/PickList";

/**
 * Ctrl+P: type part of a path (fuzzy: `smts` finds src/math/sum.ts), arrows to choose, Enter to open.
 * `path:line[:column]` opens the file there; an empty query lists the recently opened files first.
 */
export function QuickOpen(props: { files: string[]; recent: readonly string[]; onOpen: (path: string, line?: number, column?: number) => void; onClose: () => void }) {
  const [query, setQuery] = useState("");
  // On a big workspace ranking takes tens of milliseconds: typing must not wait for it.
  const ranked = useDeferredValue(query);
  const matches = useMemo(() => rankQuickOpen(ranked, props.files, props.recent, 50), [ranked, props.files, props.recent]);
  const at = parseQuickOpenQuery(ranked);

  return (
    <PickList
      label="Quick open"
      placeholder="Search files by name"
      query={query}
      onQuery={setQuery}
      empty="No matching files"
      message={at.line ? `Go to line ${at.line}${at.column ? `, column ${at.column}` : ""}` : undefined}
      rows={matches.map((m) => {
        const slash = m.path.lastIndexOf("/");
        return {
          key: m.path,
          primary: highlight(m.path.slice(slash + 1), m.positions, slash + 1),
          secondary: slash > 0 ? m.path.slice(0, slash) : "",
          hint: m.recent ? "recently opened" : undefined,
        };
      })}
      onPick={(i) => {
        // Enter right after typing may come before the deferred list caught up: rank what was typed.
        const current = ranked === query ? matches : rankQuickOpen(query, props.files, props.recent, 50);
        const target = parseQuickOpenQuery(query);
        if (current[i]) props.onOpen(current[i].path, target.line, target.column);
      }}
      onClose={props.onClose}
    />
  );
}
