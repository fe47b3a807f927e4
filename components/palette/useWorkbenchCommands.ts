"use client";
import type { CommandRegistry } from "@/lib/workbench/commands";
import { THEME_CHOICES, workbenchTheme, type ThemeChoice } from "@/lib/workbench/theme";
import { isDirty } from "@/lib/editor/documents";
import { listBranches } from "@/lib/git";
import { validateNewName } from "@/lib/workspaces/file-ops";
import type { WorkspaceState } from "@/components/workbench/useWorkspace";
import { checkoutBranch, createAndCheckoutBranch } from "@/components/workbench/branch-actions";
import { useRegisterCommands } from "./CommandsContext";

/** What the workbench does, as the commands need it: its own state stays in Workbench.tsx. */
export interface WorkbenchActions {
  ws: WorkspaceState | undefined;
  readOnly: boolean;
  activePath: string | undefined;
  quickOpen: () => void;
  findInFiles: () => void;
  showExplorer: () => void;
  showSourceControl: () => void;
  toggleTerminal: () => void;
  toggleAgent: () => void;
  togglePreview: () => void;
  /** Create a file (then open it) or a folder, as the explorer's New File / New Folder do. */
  create: (type: "file" | "dir", path: string) => Promise<void>;
  compareWithHead: (path: string) => void;
}

function nameProblem(value: string): string | undefined {
  try {
    validateNewName(value);
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** The folder of the active file, as the place a new file most likely goes. */
function folderOf(path: string | undefined): string {
  return path?.includes("/") ? path.slice(0, path.lastIndexOf("/") + 1) : "";
}

/** The workbench's own commands: files, search, views, terminal, git and the workspace. */
export function useWorkbenchCommands(registry: CommandRegistry, a: WorkbenchActions): void {
  const { ws, readOnly, activePath } = a;
  const writable = !!ws && !readOnly;
  useRegisterCommands(registry, [
    { id: "workbench.quickOpen", category: "Go", title: "Go to File…", keys: ["Ctrl+P"], enabled: !!ws, run: a.quickOpen },
    { id: "search.findInFiles", category: "Search", title: "Find in Files", keys: ["Ctrl+Shift+F"], enabled: !!ws, run: a.findInFiles },
    { id: "view.explorer", category: "View", title: "Show Explorer", enabled: !!ws, run: a.showExplorer },
    { id: "view.scm", category: "View", title: "Show Source Control", keys: ["Ctrl+Shift+G"], enabled: !!ws, run: a.showSourceControl },
    { id: "terminal.toggle", category: "Terminal", title: "Toggle Terminal", keys: ["Ctrl+`"], enabled: !!ws, run: a.toggleTerminal },
    { id: "view.toggleAgent", category: "View", title: "Toggle Agent Panel", enabled: !!ws, run: a.toggleAgent },
    { id: "view.togglePreview", category: "View", title: "Toggle Web Preview", enabled: !!ws, run: a.togglePreview },
    {
      id: "file.newFile",
      category: "File",
      title: "New File…",
      enabled: writable,
      run: async (ctx) => {
        const path = await ctx.ask({ title: "New file path", placeholder: "path/to/file.ts", value: folderOf(activePath), validate: nameProblem });
        if (path) await a.create("file", path);
      },
    },
    {
      id: "file.newFolder",
      category: "File",
      title: "New Folder…",
      enabled: writable,
      run: async (ctx) => {
        const path = await ctx.ask({ title: "New folder path", placeholder: "path/to/folder", value: folderOf(activePath), validate: nameProblem });
        if (path) await a.create("dir", path);
      },
    },
    {
      // Enabled whenever a workspace is open so Ctrl+S never falls through to the browser's "Save page".
      id: "file.save",
      category: "File",
      title: "Save",
      keys: ["Ctrl+S"],
      enabled: !!ws,
      run: async () => {
        const active = ws?.docs.active;
        if (!ws || !active) return;
        if (readOnly) throw new Error("This tab is read-only: another tab is editing this workspace.");
        await ws.docs.save(active);
      },
    },
    {
      id: "file.closeEditor",
      category: "File",
      title: "Close Editor",
      enabled: !!activePath,
      run: () => {
        const doc = activePath ? ws?.docs.get(activePath) : undefined;
        if (!ws || !doc) return;
        if (isDirty(doc) && !confirm(`${doc.path} has unsaved changes. Close it and discard them?`)) return;
        ws.docs.close(doc.path);
      },
    },
    { id: "file.compareWithHead", category: "File", title: "Compare with HEAD", enabled: !!activePath && !!ws?.branch, run: () => activePath && a.compareWithHead(activePath) },
    {
      id: "git.switchBranch",
      category: "Git",
      title: "Switch Branch…",
      enabled: writable && !!ws?.branch,
      run: async (ctx) => {
        if (!ws) return;
        const branches = await listBranches({ fs: ws.wsfs.fs, dir: ws.wsfs.dir });
        const name = await ctx.pick({
          title: "Branch to switch to",
          items: branches.map((b) => ({ id: b.name, label: b.name, detail: b.name === ws.branch ? "current" : undefined })),
        });
        if (name && name !== ws.branch) await checkoutBranch(ws, name);
      },
    },
    {
      id: "git.createBranch",
      category: "Git",
      title: "Create Branch…",
      enabled: writable && !!ws?.branch,
      run: async (ctx) => {
        if (!ws) return;
        const name = await ctx.ask({ title: "New branch name (created from the current commit)", placeholder: "feature/my-change" });
        if (name) await createAndCheckoutBranch(ws, name);
      },
    },
    {
      id: "preferences.colorTheme",
      category: "Preferences",
      title: "Color Theme…",
      run: async (ctx) => {
        const theme = workbenchTheme();
        const label: Record<ThemeChoice, string> = { system: "System (follow the OS)", light: "Light", dark: "Dark" };
        const choice = await ctx.pick({
          title: "Color theme",
          items: THEME_CHOICES.map((c) => ({ id: c, label: label[c], detail: c === theme.choice ? "current" : undefined })),
        });
        if (choice) theme.choose(choice as ThemeChoice);
      },
    },
    { id: "workspace.takeOver", category: "Workspace", title: "Edit in This Tab", enabled: !!ws && readOnly && !ws.deleted, run: () => ws?.takeOver() },
    {
      id: "workspace.showAll",
      category: "Workspace",
      title: "Show All Workspaces",
      run: () => {
        location.href = "/";
      },
    },
  ]);
}
