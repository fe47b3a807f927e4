/**
 * The app's side of the preview's file serving: a request path of the previewed site → the
 * workspace file's bytes and content type. Directories serve their index.html; TypeScript is
 * compiled to JavaScript on the way (sucrase, types stripped, ES modules kept as they are, so the
 * browser loads them as modules; sucrase is loaded on the first such file, not with the page);
 * a module with JSX or with imports of packages is bundled instead (./bundle.ts), when a bundler
 * is given;
 * HTML pages get the console hook (console-hook.ts). Nothing outside the workspace, nor under
 * .git, is ever served.
 */
import { bundleModule, needsBundle, type Esbuild } from "./bundle";
import { withConsoleHook } from "./console-hook";
import type { PreviewFileAnswer } from "./protocol";

export type PreviewSource = {
  readFile(path: string): Promise<Uint8Array>;
  stat(path: string): Promise<{ type: "file" | "dir" | "symlink" } | null>;
};

/** How modules are served: with `bundler`, JSX and package imports are bundled (the tab passes esbuild-wasm). */
export type PreviewServing = { bundler?: () => Promise<Esbuild> };

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  htm: "text/html; charset=utf-8",
  css: "text/css; charset=utf-8",
  js: "text/javascript; charset=utf-8",
  mjs: "text/javascript; charset=utf-8",
  cjs: "text/javascript; charset=utf-8",
  ts: "text/javascript; charset=utf-8",
  tsx: "text/javascript; charset=utf-8",
  jsx: "text/javascript; charset=utf-8",
  mts: "text/javascript; charset=utf-8",
  json: "application/json; charset=utf-8",
  map: "application/json; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  md: "text/plain; charset=utf-8",
  csv: "text/csv; charset=utf-8",
  xml: "application/xml",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  wasm: "application/wasm",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  mp4: "video/mp4",
  webm: "video/webm",
  pdf: "application/pdf",
};

export function contentTypeOf(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase() ?? "";
  return TYPES[ext] ?? "application/octet-stream";
}

const encode = (s: string) => new TextEncoder().encode(s).buffer as ArrayBuffer;

function page(status: number, title: string, detail: string): PreviewFileAnswer {
  const esc = (s: string) => s.replace(/[&<>"]/g, (ch) => `&#${ch.charCodeAt(0)};`);
  const html = `<!doctype html><html><head><meta charset="utf-8"><title>${esc(title)}</title></head><body style="font:14px system-ui;padding:1rem"><h1 style="font-size:1.1rem">${esc(title)}</h1><p>${esc(detail)}</p></body></html>`;
  return { status, contentType: "text/html; charset=utf-8", body: encode(withConsoleHook(html)) };
}

/**
 * The workspace-relative path a request names: `raw` is the part of the URL's path after
 * `/preview/<session>/`, still percent-encoded. Null when it is not a path inside the workspace.
 */
export function workspacePathOf(raw: string): string | null {
  const parts: string[] = [];
  for (const segment of raw.split("/")) {
    let s: string;
    try {
      s = decodeURIComponent(segment);
    } catch {
      return null;
    }
    if (s === "" || s === ".") continue;
    if (s === ".." || s.includes("/") || s.includes("\\") || s.includes("\0")) return null;
    parts.push(s);
  }
  if (parts[0] === ".git") return null;
  return parts.join("/");
}

/** The answer for one request path (see workspacePathOf). */
export async function previewFile(source: PreviewSource, raw: string, serving: PreviewServing = {}): Promise<PreviewFileAnswer> {
  const path = workspacePathOf(raw);
  if (path === null) return page(404, "Not found", `${raw} is not a path inside the workspace.`);
  let file = path;
  let st = await source.stat(path).catch(() => null);
  if (st?.type === "dir") {
    file = path ? `${path}/index.html` : "index.html";
    st = await source.stat(file).catch(() => null);
  }
  if (!st || st.type === "dir") {
    return page(404, "Not found in the workspace", path === "" || file.endsWith("index.html") ? `There is no ${file} in the workspace: create one to preview it.` : `${path} does not exist in the workspace.`);
  }
  let bytes: Uint8Array;
  try {
    bytes = await source.readFile(file);
  } catch (err) {
    return page(500, "Could not read the file", `${file}: ${(err as Error).message}`);
  }
  const contentType = contentTypeOf(file);
  if (contentType.startsWith("text/html")) return { status: 200, contentType, body: encode(withConsoleHook(new TextDecoder().decode(bytes))) };
  if (serving.bundler && /\.(ts|tsx|mts|jsx|js|mjs)$/.test(file) && needsBundle(file, new TextDecoder().decode(bytes))) {
    let result;
    try {
      result = await bundleModule(await serving.bundler(), source, file);
    } catch (err) {
      result = { error: `the bundler could not start (${(err as Error).message})` };
    }
    if ("code" in result) return { status: 200, contentType, body: encode(result.code) };
    return { status: 200, contentType, body: encode(`console.error(${JSON.stringify(`Could not bundle ${file}:\n${result.error}`)});`) };
  }
  if (/\.(ts|tsx|mts|jsx)$/.test(file)) {
    try {
      const transforms: ("typescript" | "jsx")[] = /\.(ts|tsx|mts)$/.test(file) ? ["typescript"] : [];
      if (/x$/.test(file)) transforms.push("jsx");
      const { transform } = await import("sucrase");
      const code = transform(new TextDecoder().decode(bytes), { transforms, filePath: file, disableESTransforms: true, production: true }).code;
      return { status: 200, contentType, body: encode(code) };
    } catch (err) {
      const message = `${file}: ${(err as Error).message}`;
      return { status: 200, contentType, body: encode(`console.error(${JSON.stringify(`Could not compile ${message}`)});`) };
    }
  }
  const body = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  return { status: 200, contentType, body };
}
