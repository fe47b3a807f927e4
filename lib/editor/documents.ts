import type { WorkspaceFs } from "../fs/workspace-fs";
import { classifyFile, formatBytes, LARGE_FILE_PREVIEW_BYTES } from "./file-kind";

/** One open file in the editor. `text` is what the user sees; `savedText` is what is on disk. */
export interface OpenDocument {
  path: string;
  text: string;
  savedText: string;
  readOnly: boolean;
  /** Why the document is read-only, shown as a notice above the editor. */
  notice?: string;
  /** Set when the file changed on disk (another tab, the terminal) while it had unsaved edits. */
  conflict?: boolean;
}

export function isDirty(doc: OpenDocument): boolean {
  return !doc.readOnly && doc.text !== doc.savedText;
}

type Listener = () => void;

/**
 * The editor's documents: open, edit, save, close, and reload when the file changes underneath.
 * Framework-free; the React views subscribe and re-render.
 */
export class DocumentStore {
  private docs = new Map<string, OpenDocument>();
  private order: string[] = [];
  private listeners = new Set<Listener>();
  active: string | undefined;

  constructor(private readonly wsfs: WorkspaceFs, private readonly origin = "editor") {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit() {
    for (const l of this.listeners) l();
  }

  list(): OpenDocument[] {
    return this.order.map((p) => this.docs.get(p)!);
  }

  get(path: string): OpenDocument | undefined {
    return this.docs.get(path);
  }

  async open(path: string): Promise<OpenDocument> {
    const existing = this.docs.get(path);
    if (existing) {
      this.active = path;
      this.emit();
      return existing;
    }
    const doc = await this.load(path);
    this.docs.set(path, doc);
    this.order.push(path);
    this.active = path;
    this.emit();
    return doc;
  }

  /**
   * A file changed by an edit made outside its tab (a rename across files): open it as a tab
   * without switching to it, holding `text` unsaved, so the change is seen and saved like a typed one.
   */
  async adopt(path: string, text: string): Promise<void> {
    if (!this.docs.has(path)) {
      const doc = await this.load(path);
      if (this.docs.has(path)) return this.setText(path, text);
      this.docs.set(path, doc);
      this.order.push(path);
      this.active ??= path;
    }
    const doc = this.docs.get(path)!;
    if (!doc.readOnly && doc.text !== text) this.docs.set(path, { ...doc, text });
    this.emit();
  }

  private async load(path: string): Promise<OpenDocument> {
    const bytes = await this.wsfs.readFile(path);
    const kind = classifyFile(bytes);
    if (kind.kind === "binary") {
      return {
        path,
        text: kind.hexPreview,
        savedText: kind.hexPreview,
        readOnly: true,
        notice: `Binary file (${formatBytes(kind.size)}): shown as a read-only hex preview.`,
      };
    }
    if (kind.kind === "large") {
      return {
        path,
        text: kind.text,
        savedText: kind.text,
        readOnly: true,
        notice: `Large file (${formatBytes(kind.size)}): the first ${formatBytes(LARGE_FILE_PREVIEW_BYTES)} are shown, read-only.`,
      };
    }
    return { path, text: kind.text, savedText: kind.text, readOnly: false };
  }

  setText(path: string, text: string) {
    const doc = this.docs.get(path);
    if (!doc || doc.readOnly || doc.text === text) return;
    this.docs.set(path, { ...doc, text });
    this.emit();
  }

  async save(path: string): Promise<void> {
    const doc = this.docs.get(path);
    if (!doc || doc.readOnly) return;
    const text = doc.text;
    await this.wsfs.writeFile(path, text, { origin: this.origin });
    await this.wsfs.flush();
    const after = this.docs.get(path);
    if (after) this.docs.set(path, { ...after, savedText: text, conflict: false });
    this.emit();
  }

  async saveAll(): Promise<void> {
    for (const doc of this.list()) if (isDirty(doc)) await this.save(doc.path);
  }

  close(path: string) {
    if (!this.docs.delete(path)) return;
    const index = this.order.indexOf(path);
    this.order.splice(index, 1);
    if (this.active === path) this.active = this.order[Math.min(index, this.order.length - 1)];
    this.emit();
  }

  activate(path: string) {
    if (this.docs.has(path)) {
      this.active = path;
      this.emit();
    }
  }

  /** A file was renamed or moved in the tree: carry its tab (and unsaved text) along. */
  renamed(from: string, to: string) {
    let changed = false;
    for (const path of [...this.order]) {
      if (path !== from && !path.startsWith(from + "/")) continue;
      const next = to + path.slice(from.length);
      const doc = this.docs.get(path)!;
      this.docs.delete(path);
      this.docs.set(next, { ...doc, path: next });
      this.order[this.order.indexOf(path)] = next;
      if (this.active === path) this.active = next;
      changed = true;
    }
    if (changed) this.emit();
  }

  /**
   * Files changed on disk (terminal, another tab, a restore). Clean documents reload silently;
   * documents with unsaved edits keep them and are flagged as conflicting, so nothing typed is lost.
   */
  async refresh(paths: Iterable<string> | "all"): Promise<void> {
    const targets = paths === "all" ? [...this.order] : [...paths].filter((p) => this.docs.has(p));
    let changed = false;
    for (const path of targets) {
      const doc = this.docs.get(path);
      if (!doc) continue;
      if (!(await this.wsfs.exists(path))) {
        // Deleted underneath: keep the tab with its text so the user can save it back.
        if (!doc.conflict) {
          this.docs.set(path, { ...doc, savedText: "", conflict: true, notice: "This file was deleted on disk." });
          changed = true;
        }
        continue;
      }
      const fresh = await this.load(path);
      if (fresh.savedText === doc.savedText && fresh.readOnly === doc.readOnly) continue;
      if (isDirty(doc)) {
        this.docs.set(path, { ...doc, savedText: fresh.savedText, conflict: true, notice: "Changed on disk while you were editing; saving will overwrite it." });
      } else {
        this.docs.set(path, fresh);
      }
      changed = true;
    }
    if (changed) this.emit();
  }
}
