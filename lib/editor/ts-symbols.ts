/**
 * Declarations out of the TypeScript service's navigation tree of one file (what its outline
 * shows): functions, classes, interfaces, types, enums, variables and, one level down, their
 * members — each with the lines its whole declaration spans, so a symbol mention can send it.
 * Pure: the editor end (components/editor/ts-symbols.ts) asks the service and maps offsets.
 */
import type { SymbolEntry } from "../agent/mentions";

/** The shape of TypeScript's NavigationTree (only what is read here). */
export type NavigationTree = { text: string; kind: string; spans: { start: number; length: number }[]; childItems?: NavigationTree[] };

// Not "alias": an import names a declaration made elsewhere (that one is offered instead).
const KINDS = new Set(["function", "class", "interface", "type", "enum", "const", "let", "var", "method", "property", "getter", "setter"]);
const MEMBER_KINDS = new Set(["method", "property", "getter", "setter"]);

/** `lineOf(offset)`: 1-based line of a character offset of the file. */
export function symbolsOfTree(tree: NavigationTree, path: string, lineOf: (offset: number) => number): SymbolEntry[] {
  const out: SymbolEntry[] = [];
  const add = (item: NavigationTree, container?: string) => {
    const span = item.spans[0];
    if (!span || !KINDS.has(item.kind) || !/^[A-Za-z_$][\w$]*$/.test(item.text)) return false;
    const name = container ? `${container}.${item.text}` : item.text;
    const entry: SymbolEntry = { name, kind: item.kind, path, startLine: lineOf(span.start), endLine: lineOf(span.start + Math.max(0, span.length - 1)) };
    if (container) entry.container = container;
    out.push(entry);
    return true;
  };
  // The root is the file ("<global>" or a module); its children are the top-level declarations.
  for (const top of tree.childItems ?? []) {
    if (!add(top)) continue;
    if (top.kind === "class" || top.kind === "interface") for (const member of top.childItems ?? []) if (MEMBER_KINDS.has(member.kind)) add(member, top.text);
  }
  return out;
}
