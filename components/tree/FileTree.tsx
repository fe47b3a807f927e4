"use client";
import { Fragment, useEffect, useLayoutEffect, useMemo, useRef, useState } from "react";
import type { TreeNode, GitDecoration } from "@/lib/workspaces/tree-model";
import { visibleRows } from "@/lib/workspaces/tree-model";
import { rowWindow, scrollToReveal } from "@/lib/workbench/row-window";
import { takeFromTransfer, type EntryLike, type FileLike } from "@/lib/workspaces/dropped-entries";

export type TreeIntent =
  | { kind: "open"; path: string }
  | { kind: "create"; parent: string; name: string; type: "file" | "dir" }
  | { kind: "rename"; path: string; newName: string }
  | { kind: "delete"; path: string }
  | { kind: "move"; path: string; toDir: string }
  /** Files or folders dragged in from the desktop, to go into folder `toDir`. */
  | { kind: "drop"; toDir: string; dropped: (EntryLike | FileLike)[] }
  | { kind: "diff"; path: string };

type Editing = { kind: "create"; parent: string; type: "file" | "dir" } | { kind: "rename"; path: string };

/** Every line of the tree is this tall (globals.css .tree-row): the window arithmetic relies on it. */
const ROW_HEIGHT = 24;

const GIT_LETTER: Record<GitDecoration, string> = { modified: "M", untracked: "U", added: "A", deleted: "D", ignored: "" };

function parentOf(path: string) {
  const i = path.lastIndexOf("/");
  return i === -1 ? "" : path.slice(0, i);
}

/**
 * The explorer: a keyboard-navigable tree (arrows, Enter, F2, Delete), a context menu,
 * drag and drop to move, inline inputs to create and rename. It forwards intents; the workbench acts.
 */
export function FileTree(props: {
  /** The tree has not been read yet: say so instead of "No files yet". */
  loading?: boolean;
  nodes: TreeNode[];
  decorations: Map<string, GitDecoration>;
  activePath?: string;
  readOnly: boolean;
  /** The folders to show expanded when the tree appears (remembered from the last visit). */
  initialExpanded?: () => string[];
  onExpandedChange?: (paths: string[]) => void;
  onIntent: (intent: TreeIntent) => Promise<void> | void;
}) {
  const [expanded, setExpanded] = useState<Set<string>>(() => new Set(props.initialExpanded?.()));
  const onExpandedChange = useRef(props.onExpandedChange);
  onExpandedChange.current = props.onExpandedChange;
  useEffect(() => onExpandedChange.current?.([...expanded]), [expanded]);
  const [selected, setSelected] = useState<string>();
  const [editing, setEditing] = useState<Editing>();
  const [draft, setDraft] = useState("");
  const [menu, setMenu] = useState<{ x: number; y: number; node?: TreeNode }>();
  const [dropTarget, setDropTarget] = useState<string>();
  /** A row's folder for a drop: a folder itself, a file its parent (dropping onto a file puts things beside it). */
  const folderOf = (node: TreeNode) => (node.type === "dir" ? node.path : node.path.includes("/") ? node.path.slice(0, node.path.lastIndexOf("/")) : "");
  const acceptsDrag = (dt: DataTransfer) => dt.types.includes("application/x-tabula-path") || dt.types.includes("Files");
  const onDropInto = (dt: DataTransfer, toDir: string) => {
    const from = dt.getData("application/x-tabula-path");
    if (from) {
      const parent = from.includes("/") ? from.slice(0, from.lastIndexOf("/")) : "";
      if (parent !== toDir && from !== toDir) void props.onIntent({ kind: "move", path: from, toDir });
      return;
    }
    // The items must be taken now: the browser empties them once this handler returns.
    const dropped = takeFromTransfer(dt);
    if (dropped.length) void props.onIntent({ kind: "drop", toDir, dropped });
  };
  const treeRef = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ scrollTop: 0, height: 0 });
  useEffect(() => {
    const el = treeRef.current;
    if (!el) return;
    const measure = () => setViewport({ scrollTop: el.scrollTop, height: el.clientHeight });
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const rows = useMemo(() => visibleRows(props.nodes, expanded), [props.nodes, expanded]);
  const byPath = useMemo(() => new Map(rows.map((r) => [r.node.path, r])), [rows]);

  // Reveal the active file: expand its folders.
  useEffect(() => {
    if (!props.activePath) return;
    const parts = props.activePath.split("/");
    setExpanded((prev) => {
      const next = new Set(prev);
      for (let i = 1; i < parts.length; i++) next.add(parts.slice(0, i).join("/"));
      return next.size === prev.size ? prev : next;
    });
    setSelected(props.activePath);
  }, [props.activePath]);

  const toggle = (path: string, open?: boolean) =>
    setExpanded((prev) => {
      const next = new Set(prev);
      if (open ?? !next.has(path)) next.add(path);
      else next.delete(path);
      return next;
    });

  const startCreate = (type: "file" | "dir", base?: TreeNode) => {
    if (props.readOnly) return;
    const parent = !base ? "" : base.type === "dir" ? base.path : parentOf(base.path);
    if (parent) toggle(parent, true);
    setEditing({ kind: "create", parent, type });
    setDraft("");
  };

  const startRename = (node: TreeNode) => {
    if (props.readOnly) return;
    setEditing({ kind: "rename", path: node.path });
    setDraft(node.name);
  };

  const commitEdit = async () => {
    const current = editing;
    setEditing(undefined);
    if (!current || !draft.trim()) return;
    if (current.kind === "create") await props.onIntent({ kind: "create", parent: current.parent, name: draft, type: current.type });
    else if (draft !== current.path.split("/").pop()) await props.onIntent({ kind: "rename", path: current.path, newName: draft });
    treeRef.current?.focus();
  };

  const activate = (node: TreeNode) => {
    setSelected(node.path);
    if (node.type === "dir") toggle(node.path);
    else void props.onIntent({ kind: "open", path: node.path });
  };

  const onKeyDown = (e: React.KeyboardEvent) => {
    if (editing) return;
    const index = rows.findIndex((r) => r.node.path === selected);
    const row = index >= 0 ? rows[index] : undefined;
    const go = (i: number) => rows[i] && setSelected(rows[i].node.path);
    switch (e.key) {
      case "ArrowDown":
        go(index < 0 ? 0 : Math.min(rows.length - 1, index + 1));
        break;
      case "ArrowUp":
        go(index < 0 ? 0 : Math.max(0, index - 1));
        break;
      case "Home":
        go(0);
        break;
      case "End":
        go(rows.length - 1);
        break;
      case "ArrowRight":
        if (row?.node.type === "dir") {
          if (!expanded.has(row.node.path)) toggle(row.node.path, true);
          else go(index + 1);
        }
        break;
      case "ArrowLeft":
        if (row?.node.type === "dir" && expanded.has(row.node.path)) toggle(row.node.path, false);
        else if (row) {
          const parent = parentOf(row.node.path);
          if (parent) setSelected(parent);
        }
        break;
      case "Enter":
        if (row) activate(row.node);
        break;
      case "F2":
        if (row) startRename(row.node);
        break;
      case "Delete":
        if (row && !props.readOnly) void props.onIntent({ kind: "delete", path: row.node.path });
        break;
      default:
        return;
    }
    e.preventDefault();
  };

  const editInput = (depth: number, icon: string) => (
    <div className="tree-row" style={{ paddingLeft: 8 + depth * 14 }}>
      <span className="twisty">{icon}</span>
      <input
        type="text"
        autoFocus
        aria-label={editing?.kind === "rename" ? "New name" : editing?.type === "dir" ? "New folder name" : "New file name"}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === "Enter") void commitEdit();
          if (e.key === "Escape") {
            setEditing(undefined);
            treeRef.current?.focus();
          }
        }}
        onBlur={() => void commitEdit()}
      />
    </div>
  );

  const renderRow = (node: TreeNode, depth: number, posInSet: number, setSize: number) => {
    const deco = props.decorations.get(node.path);
    return (
      <div
        role="treeitem"
        aria-level={depth + 1}
        aria-posinset={posInSet}
        aria-setsize={setSize}
        aria-expanded={node.type === "dir" ? expanded.has(node.path) : undefined}
        aria-selected={selected === node.path}
        data-path={node.path}
        className={`tree-row${selected === node.path ? " selected" : ""}${dropTarget !== undefined && dropTarget !== "" && dropTarget === folderOf(node) ? " drop-target" : ""}`}
        style={{ paddingLeft: 8 + depth * 14 }}
        draggable={!props.readOnly}
        onClick={() => activate(node)}
        onContextMenu={(e) => {
          e.preventDefault();
          setSelected(node.path);
          setMenu({ x: e.clientX, y: e.clientY, node });
        }}
        onDragStart={(e) => {
          e.dataTransfer.setData("application/x-tabula-path", node.path);
          e.dataTransfer.effectAllowed = "move";
        }}
        onDragOver={(e) => {
          if (props.readOnly || !acceptsDrag(e.dataTransfer)) return;
          e.preventDefault();
          e.stopPropagation();
          e.dataTransfer.dropEffect = e.dataTransfer.types.includes("Files") ? "copy" : "move";
          setDropTarget(folderOf(node));
        }}
        onDragLeave={() => setDropTarget((t) => (t === folderOf(node) ? undefined : t))}
        onDrop={(e) => {
          e.preventDefault();
          e.stopPropagation();
          setDropTarget(undefined);
          onDropInto(e.dataTransfer, folderOf(node));
        }}
      >
        <span className="twisty">{node.type === "dir" ? (expanded.has(node.path) ? "▾" : "▸") : ""}</span>
        <span className={`label${deco ? ` git-${deco}` : ""}`}>{node.name}</span>
        {deco && GIT_LETTER[deco] && <span className={`git git-${deco}`} title={deco}>{GIT_LETTER[deco]}</span>}
      </div>
    );
  };

  // Every line of the tree in order (rows, and the inline input of a create or rename); only the
  // ones near the viewport are put in the page.
  type Line = { key: string; render: () => React.ReactNode; path?: string };
  const lines: Line[] = [];
  if (editing?.kind === "create" && editing.parent === "") lines.push({ key: "__new", render: () => editInput(0, editing.type === "dir" ? "▸" : "") });
  for (const { node, depth, posInSet, setSize } of rows) {
    if (editing?.kind === "rename" && editing.path === node.path) {
      lines.push({ key: node.path, path: node.path, render: () => editInput(depth, node.type === "dir" ? "▸" : "") });
    } else {
      lines.push({ key: node.path, path: node.path, render: () => renderRow(node, depth, posInSet, setSize) });
    }
    if (editing?.kind === "create" && node.type === "dir" && editing.parent === node.path && expanded.has(node.path))
      lines.push({ key: `${node.path}/__new`, render: () => editInput(depth + 1, editing.type === "dir" ? "▸" : "") });
  }
  const editingIndex = !editing ? -1 : lines.findIndex((l) => (editing.kind === "create" ? l.key.endsWith("__new") : l.path === editing.path));
  const shown = rowWindow(lines.length, ROW_HEIGHT, viewport.scrollTop, viewport.height);

  // Bring a newly selected row (keyboard, a revealed file) or a new inline input into view — when
  // the selection changes, not when rows come and go around it while the list is scrolled away.
  const revealIndex = editingIndex >= 0 ? editingIndex : selected === undefined ? -1 : lines.findIndex((l) => l.path === selected);
  const revealKey = editing ? JSON.stringify(editing) : selected;
  useLayoutEffect(() => {
    const el = treeRef.current;
    if (!el || revealIndex < 0) return;
    const top = scrollToReveal(revealIndex, ROW_HEIGHT, el.scrollTop, el.clientHeight);
    if (top !== null) el.scrollTop = top;
  }, [revealKey]);

  return (
    <>
      <div className="sidebar-header">
        <span>Explorer</span>
        <span className="spacer" />
        <button title="New file" aria-label="New file" disabled={props.readOnly} onClick={() => startCreate("file", byPath.get(selected ?? "")?.node)}>
          +File
        </button>
        <button title="New folder" aria-label="New folder" disabled={props.readOnly} onClick={() => startCreate("dir", byPath.get(selected ?? "")?.node)}>
          +Folder
        </button>
      </div>
      <div
        ref={treeRef}
        className={`tree${dropTarget === "" ? " drop-target-root" : ""}`}
        role="tree"
        aria-label="Files"
        tabIndex={0}
        onKeyDown={onKeyDown}
        onScroll={(e) => setViewport({ scrollTop: e.currentTarget.scrollTop, height: e.currentTarget.clientHeight })}
        onFocus={() => !selected && rows[0] && setSelected(rows[0].node.path)}
        onContextMenu={(e) => {
          if (e.target !== e.currentTarget) return;
          e.preventDefault();
          setMenu({ x: e.clientX, y: e.clientY });
        }}
        onDragOver={(e) => {
          if (props.readOnly || !acceptsDrag(e.dataTransfer)) return;
          e.preventDefault();
          e.dataTransfer.dropEffect = e.dataTransfer.types.includes("Files") ? "copy" : "move";
          setDropTarget("");
        }}
        onDragLeave={(e) => {
          if (e.target === e.currentTarget) setDropTarget(undefined);
        }}
        onDrop={(e) => {
          e.preventDefault();
          setDropTarget(undefined);
          onDropInto(e.dataTransfer, "");
        }}
      >
        <div style={{ height: shown.first * ROW_HEIGHT }} aria-hidden="true" />
        {lines.slice(shown.first, shown.end).map((line) => (
          <Fragment key={line.key}>{line.render()}</Fragment>
        ))}
        <div style={{ height: (lines.length - shown.end) * ROW_HEIGHT }} aria-hidden="true" />
        {rows.length === 0 && !editing && (
          <p className="muted" role="status" style={{ padding: "0 12px" }}>
            {props.loading ? "Loading files…" : "No files yet."}
          </p>
        )}
      </div>
      {menu && (
        <ContextMenu
          x={menu.x}
          y={menu.y}
          onClose={() => setMenu(undefined)}
          items={[
            { label: "New File", disabled: props.readOnly, run: () => startCreate("file", menu.node) },
            { label: "New Folder", disabled: props.readOnly, run: () => startCreate("dir", menu.node) },
            ...(menu.node
              ? [
                  ...(menu.node.type !== "dir" ? [{ label: "Open", run: () => props.onIntent({ kind: "open", path: menu.node!.path }) }] : []),
                  ...(menu.node.type !== "dir" ? [{ label: "Compare with HEAD", run: () => props.onIntent({ kind: "diff", path: menu.node!.path }) }] : []),
                  { label: "Rename…", disabled: props.readOnly, run: () => startRename(menu.node!) },
                  { label: "Delete", disabled: props.readOnly, run: () => props.onIntent({ kind: "delete", path: menu.node!.path }) },
                  { label: "Copy Path", run: () => navigator.clipboard?.writeText(menu.node!.path) },
                ]
              : []),
          ]}
        />
      )}
    </>
  );
}

function ContextMenu(props: { x: number; y: number; items: { label: string; disabled?: boolean; run: () => unknown }[]; onClose: () => void }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLButtonElement>("button:not(:disabled)")?.focus();
    const close = (e: MouseEvent) => !ref.current?.contains(e.target as Node) && props.onClose();
    addEventListener("mousedown", close);
    return () => removeEventListener("mousedown", close);
  }, [props]);
  return (
    <div
      ref={ref}
      className="context-menu"
      role="menu"
      style={{ left: props.x, top: props.y }}
      onKeyDown={(e) => {
        const buttons = Array.from(ref.current?.querySelectorAll<HTMLButtonElement>("button:not(:disabled)") ?? []);
        const i = buttons.indexOf(document.activeElement as HTMLButtonElement);
        if (e.key === "Escape") props.onClose();
        else if (e.key === "ArrowDown") buttons[(i + 1) % buttons.length]?.focus();
        else if (e.key === "ArrowUp") buttons[(i - 1 + buttons.length) % buttons.length]?.focus();
        else return;
        e.preventDefault();
      }}
    >
      {props.items.map((item) => (
        <button
          key={item.label}
          role="menuitem"
          disabled={item.disabled}
          onClick={() => {
            props.onClose();
            void item.run();
          }}
        >
          {item.label}
        </button>
      ))}
    </div>
  );
}
