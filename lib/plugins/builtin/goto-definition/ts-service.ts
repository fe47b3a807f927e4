/**
 * Go to definition for TypeScript and JavaScript, backed by the TypeScript language service
 * over an in-memory copy of the workspace's source files (no default lib: definitions in the
 * workspace are what the agent needs). Runs in a Web Worker in the app; directly in tests.
 */
import ts from "typescript";

export type SourceFiles = Record<string, string>;
export type Definition = { file: string; line: number; column: number; kind: string; name: string; preview: string };

export const SOURCE_RE = /\.(?:[cm]?[jt]sx?)$/;

export class TsDefinitions {
  private files = new Map<string, { text: string; version: number }>();
  private service: ts.LanguageService;

  constructor() {
    const host: ts.LanguageServiceHost = {
      getScriptFileNames: () => [...this.files.keys()],
      getScriptVersion: (f) => String(this.files.get(f)?.version ?? 0),
      getScriptSnapshot: (f) => {
        const e = this.files.get(f);
        return e ? ts.ScriptSnapshot.fromString(e.text) : undefined;
      },
      getCurrentDirectory: () => "/",
      getCompilationSettings: () => ({ allowJs: true, checkJs: false, noLib: true, jsx: ts.JsxEmit.Preserve, target: ts.ScriptTarget.ESNext, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, noEmit: true }),
      getDefaultLibFileName: () => "/__no_lib__.d.ts",
      fileExists: (f) => this.files.has(f),
      readFile: (f) => this.files.get(f)?.text,
      directoryExists: () => true,
      getDirectories: () => [],
    };
    this.service = ts.createLanguageService(host, ts.createDocumentRegistry());
  }

  /** Replace the known files (unchanged ones keep their version, so the service reuses its work). */
  update(files: SourceFiles): void {
    const next = new Map<string, { text: string; version: number }>();
    for (const [rel, text] of Object.entries(files)) {
      const f = "/" + rel.replace(/^\/+/, "");
      const old = this.files.get(f);
      next.set(f, old && old.text === text ? old : { text, version: (old?.version ?? 0) + 1 });
    }
    this.files = next;
  }

  /** Definitions of `symbol` on `line` (1-based) of `file`, or of the first identifier there. */
  define(file: string, line: number, symbol?: string): Definition[] {
    const f = "/" + file.replace(/^\/+/, "");
    const entry = this.files.get(f);
    if (!entry) throw new Error(`${file} is not a TypeScript/JavaScript file of the workspace`);
    const lines = entry.text.split("\n");
    if (!Number.isInteger(line) || line < 1 || line > lines.length) throw new Error(`${file} has ${lines.length} lines; line ${line} does not exist`);
    const text = lines[line - 1]!;
    let col = -1;
    if (symbol) {
      const re = new RegExp(`(?<![A-Za-z0-9_$])${symbol.replace(/[$]/g, "\\$")}(?![A-Za-z0-9_$])`);
      col = text.search(re);
      if (col === -1) throw new Error(`"${symbol}" does not appear on line ${line} of ${file}`);
    } else {
      col = text.search(/[A-Za-z_$][A-Za-z0-9_$]*/);
      if (col === -1) throw new Error(`Line ${line} of ${file} has no identifier`);
    }
    let pos = 0;
    for (let i = 0; i < line - 1; i++) pos += lines[i]!.length + 1;
    pos += col;
    const defs = this.service.getDefinitionAtPosition(f, pos) ?? [];
    return defs.map((d) => {
      const target = this.files.get(d.fileName)?.text ?? "";
      const before = target.slice(0, d.textSpan.start).split("\n");
      const lineNo = before.length;
      return { file: d.fileName.replace(/^\//, ""), line: lineNo, column: before.at(-1)!.length + 1, kind: d.kind, name: d.name, preview: (target.split("\n")[lineNo - 1] ?? "").trim().slice(0, 200) };
    });
  }
}
