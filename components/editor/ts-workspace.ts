"use client";
/**
 * The workspace as Monaco's TypeScript service sees it. Every TS/JS source is a Monaco model
 * (Monaco's TS worker only knows models and extra libs, and Go to Definition / Find All
 * References / Rename can only land in a model), node_modules declarations are extra libs, and
 * tsconfig.json / jsconfig.json set the compiler options. What to read and when is
 * `lib/editor/ts-workspace-sync.ts`; this file is the Monaco end of it, plus:
 * - a model's text is its open tab's text when the file is open, else the text on disk;
 * - an edit made to a file with no tab (a rename across files) opens a tab holding it unsaved;
 * - Go to Definition into another file opens that file in the editor;
 * - files whose imports changed are checked again (Monaco re-checks only the edited file);
 * - the TS/JS markers of workspace files are published to `workspaceProblems`.
 */
import { monaco, modelUri } from "./monaco-setup";
import type { WorkspaceFs } from "@/lib/fs/workspace-fs";
import type { DocumentStore } from "@/lib/editor/documents";
import { TsWorkspaceSync } from "@/lib/editor/ts-workspace-sync";
import { isTsSource } from "@/lib/editor/ts-sources";
import { workerFileName, type TsCompilerOptions } from "@/lib/editor/ts-config";
import { markerFromDiagnostic, type TsDiagnostic } from "@/lib/editor/ts-diagnostics";
import { problemFromMarker, workspaceProblems } from "@/lib/editor/problems";

const tsApi = monaco.typescript;
const OWNERS = new Set(["typescript", "javascript"]);
/** How long after the last change the files that did not change are checked again. */
const RECHECK_MS = 900;
const RECHECK_ALL_MAX = 400;

export interface TsWorkspaceHandle {
  /** The model of `path` belongs to the TypeScript feed (a closed tab must not dispose it). */
  owns(path: string): boolean;
  stop(): void;
}

let current: TsWorkspaceHandle | undefined;

/** The feed of the workbench on this page, if one is attached. */
export function currentTsWorkspace(): TsWorkspaceHandle | undefined {
  return current;
}

function pathOf(uri: monaco.Uri): string | undefined {
  return uri.scheme === "file" ? uri.path.slice(1) : undefined;
}

export function attachTypeScriptWorkspace(wsfs: WorkspaceFs, docs: DocumentStore): TsWorkspaceHandle {
  current?.stop();
  for (const defaults of [tsApi.typescriptDefaults, tsApi.javascriptDefaults]) defaults.setEagerModelSync(true);
  workspaceProblems.clear();
  workspaceProblems.setChecking(true);

  const disk = new Map<string, string>();
  const owned = new Set<string>();
  const adopting = new Set<string>();
  const subscriptions = new Map<string, monaco.IDisposable>();
  let applying = false;
  let stopped = false;
  let typeKey = "";
  let lastOpen = new Set<string>();
  let configNotes: string[] = [];
  let limitNote: string | undefined;
  let readNote: string | undefined;
  let firstCheck = true;
  const notify = () => workspaceProblems.setNotices([...configNotes, ...[limitNote, readNote].filter((n) => n !== undefined)]);

  const setText = (model: monaco.editor.ITextModel, text: string, undoable: boolean) => {
    if (model.getValue() === text) return;
    applying = true;
    try {
      if (undoable) model.pushEditOperations([], [{ range: model.getFullModelRange(), text }], () => null);
      else model.setValue(text);
    } finally {
      applying = false;
    }
  };

  const onModelEdited = (path: string, model: monaco.editor.ITextModel) => {
    scheduleRecheck();
    if (applying) return;
    const text = model.getValue();
    if (docs.get(path)) return docs.setText(path, text);
    // Changed with no tab open (e.g. Rename Symbol across files): keep the change as an unsaved tab.
    adopting.add(path);
    void docs
      .adopt(path, text)
      .catch((e) => console.error(`Could not open ${path} for an edit made to it:`, e))
      .finally(() => adopting.delete(path));
  };

  const sink = {
    setSource(path: string, text: string) {
      disk.set(path, text);
      const uri = modelUri(path);
      let model = monaco.editor.getModel(uri);
      if (!model) {
        applying = true;
        try {
          model = monaco.editor.createModel(docs.get(path)?.text ?? text, undefined, uri);
        } finally {
          applying = false;
        }
      } else if (!docs.get(path)) setText(model, text, false);
      owned.add(path);
      if (!subscriptions.has(path)) {
        const m = model;
        subscriptions.set(path, m.onDidChangeContent(() => onModelEdited(path, m)));
      }
      scheduleRecheck();
    },
    removeSource(path: string) {
      disk.delete(path);
      owned.delete(path);
      subscriptions.get(path)?.dispose();
      subscriptions.delete(path);
      const model = monaco.editor.getModel(modelUri(path));
      // A tab still open on a deleted file keeps its model (and its unsaved text).
      if (model && !docs.get(path) && !model.isAttachedToEditor()) model.dispose();
      workspaceProblems.setFile(path, []);
      scheduleRecheck();
    },
    setTypeFiles(files: { path: string; text: string }[]) {
      const libs = files.map((f) => ({ content: f.text, filePath: workerFileName(f.path) }));
      const key = libs.map((l) => `${l.filePath}:${l.content.length}`).join("\n");
      if (key === typeKey) return;
      typeKey = key;
      tsApi.typescriptDefaults.setExtraLibs(libs);
      tsApi.javascriptDefaults.setExtraLibs(libs);
    },
    setCompilerOptions(options: TsCompilerOptions, _configPath: string | undefined, errors: string[]) {
      const ts = options as monaco.typescript.CompilerOptions;
      const js = { ...ts, allowJs: true } as monaco.typescript.CompilerOptions;
      if (JSON.stringify(ts) !== JSON.stringify(tsApi.typescriptDefaults.getCompilerOptions())) tsApi.typescriptDefaults.setCompilerOptions(ts);
      if (JSON.stringify(js) !== JSON.stringify(tsApi.javascriptDefaults.getCompilerOptions())) tsApi.javascriptDefaults.setCompilerOptions(js);
      configNotes = errors;
      notify();
    },
    notice(message: string | undefined) {
      if (message === limitNote) return;
      limitNote = message;
      notify();
    },
  };

  // Open tabs drive their models; a closed tab's model goes back to the text on disk.
  const offDocs = docs.subscribe(() => {
    const open = new Set(docs.list().map((d) => d.path));
    for (const path of new Set([...open, ...lastOpen])) {
      if (!owned.has(path) || adopting.has(path)) continue;
      const model = monaco.editor.getModel(modelUri(path));
      if (!model) continue;
      const doc = docs.get(path);
      if (doc && doc.readOnly) continue;
      const text = doc ? doc.text : disk.get(path);
      if (text !== undefined) setText(model, text, !!doc);
    }
    lastOpen = open;
  });

  // Problems: the TS/JS markers of workspace sources (not of node_modules declarations opened by Go to Definition).
  const publish = (uri: monaco.Uri) => {
    const path = pathOf(uri);
    if (!path || !isTsSource(path)) return;
    const problems = monaco.editor
      .getModelMarkers({ resource: uri })
      .filter((m) => OWNERS.has(m.owner))
      .flatMap((m) => problemFromMarker(path, { ...m, code: typeof m.code === "object" ? m.code.value : m.code }) ?? []);
    workspaceProblems.setFile(path, owned.has(path) || docs.get(path) ? problems : []);
  };
  const offMarkers = monaco.editor.onDidChangeMarkers((uris) => uris.forEach(publish));
  for (const model of monaco.editor.getModels()) publish(model.uri);

  // Monaco checks a file again only when it is edited; a change to what it imports must too.
  let recheckTimer: ReturnType<typeof setTimeout> | undefined;
  let rechecking = false;
  function scheduleRecheck() {
    clearTimeout(recheckTimer);
    recheckTimer = setTimeout(() => void recheck(), RECHECK_MS);
  }
  async function recheck() {
    if (rechecking) {
      recheckTimer = setTimeout(() => void recheck(), RECHECK_MS);
      return;
    }
    rechecking = true;
    try {
      const ignore = new Set(tsApi.typescriptDefaults.getDiagnosticsOptions().diagnosticCodesToIgnore ?? []);
      // Every file (Monaco's own check of a file may have run before the files it imports were
      // fed); past RECHECK_ALL_MAX files only the open ones, to bound the cost of a keystroke.
      const open = new Set(docs.list().map((d) => d.path));
      const targets = owned.size <= RECHECK_ALL_MAX ? [...owned] : [...owned].filter((p) => open.has(p));
      for (const path of targets) {
        if (stopped) return;
        const model = monaco.editor.getModel(modelUri(path));
        if (!model || model.isDisposed()) continue;
        const language = model.getLanguageId();
        if (language !== "typescript" && language !== "javascript") continue;
        const version = model.getVersionId();
        const getWorker = language === "typescript" ? await tsApi.getTypeScriptWorker() : await tsApi.getJavaScriptWorker();
        const worker = await getWorker(model.uri);
        const name = model.uri.toString();
        const found = await Promise.all([worker.getSyntacticDiagnostics(name), worker.getSemanticDiagnostics(name), worker.getSuggestionDiagnostics(name)]);
        if (model.isDisposed() || model.getVersionId() !== version) continue;
        const markers = (found.flat() as TsDiagnostic[])
          .filter((d) => !ignore.has(d.code))
          .map((d) => markerFromDiagnostic(d, (offset) => model.getPositionAt(offset)));
        monaco.editor.setModelMarkers(model, language, markers);
      }
    } catch (e) {
      console.error("Re-checking TypeScript files failed:", e);
    } finally {
      rechecking = false;
      if (initialFed && firstCheck) {
        firstCheck = false;
        workspaceProblems.setChecking(false);
      }
    }
  }

  // Go to Definition (and a reference picked in the peek view) in another file: open it here.
  const opener = monaco.editor.registerEditorOpener({
    openCodeEditor(source, resource, selectionOrPosition) {
      const path = pathOf(resource);
      if (!path) return false;
      return (async () => {
        if (!(await wsfs.exists(path))) return false;
        await docs.open(path);
        if (selectionOrPosition) revealWhenShown(source, resource, selectionOrPosition);
        return true;
      })();
    },
  });

  const sync = new TsWorkspaceSync(wsfs, sink);
  let initialFed = false;
  void sync
    .start()
    .catch((e: unknown) => {
      // The files that could be read are fed; the count must still settle rather than spin forever.
      console.error("Reading the workspace for TypeScript failed:", e);
      readNote = `Some files could not be read for checking: ${e instanceof Error ? e.message : String(e)}`;
      notify();
    })
    .then(() => {
      initialFed = true;
      scheduleRecheck();
      // node_modules declarations are read after the sources, when the page has a moment.
      const later = (cb: () => void) => ("requestIdleCallback" in window ? requestIdleCallback(cb, { timeout: 3000 }) : setTimeout(cb, 1000));
      later(() => void (stopped || sync.loadTypes()));
    });
  // Another tab's writes never reach this journal (it is marked unknown instead): read everything again.
  const staleCheck = setInterval(() => {
    if (sync.outOfDate) void sync.resync();
  }, 2000);

  const handle: TsWorkspaceHandle = {
    owns: (path) => owned.has(path),
    stop() {
      if (stopped) return;
      stopped = true;
      sync.stop();
      clearInterval(staleCheck);
      clearTimeout(recheckTimer);
      offDocs();
      offMarkers.dispose();
      opener.dispose();
      for (const s of subscriptions.values()) s.dispose();
      for (const path of owned) {
        const model = monaco.editor.getModel(modelUri(path));
        if (model && !model.isAttachedToEditor()) model.dispose();
      }
      owned.clear();
      workspaceProblems.clear();
      if (current === handle) current = undefined;
    },
  };
  current = handle;
  return handle;
}

/** Select the target once the editor shows its model (the tab switch happens on the next render). */
function revealWhenShown(editor: monaco.editor.ICodeEditor, resource: monaco.Uri, at: monaco.IRange | monaco.IPosition) {
  const range = "startLineNumber" in at ? at : new monaco.Range(at.lineNumber, at.column, at.lineNumber, at.column);
  let tries = 0;
  const attempt = () => {
    if (editor.getModel()?.uri.toString() === resource.toString()) {
      editor.setSelection(range);
      editor.revealRangeInCenter(range);
      editor.focus();
    } else if (tries++ < 60) requestAnimationFrame(attempt);
  };
  attempt();
}
