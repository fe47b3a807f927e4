/**
 * Reading an npm package tarball (a gzipped ustar archive whose entries sit under "package/").
 *
 * Written here rather than taken from a tar library: the ones on npm are Node-stream programs
 * (node-tar, tar-stream) and an npm tarball needs little of tar — regular files and folders, the
 * ustar name prefix, and pax / GNU long names. fflate gunzips. What an archive may do to the
 * workspace is bounded here: entries are only files (links and devices are skipped), every path is
 * normalised and must stay inside the package folder, and the unpacked size and the file count
 * are capped (a gzip bomb stops at the cap, before its bytes are held).
 */
import { Gunzip } from "fflate";
import { concatBytes } from "../checkpoints/util";

export type TarFile = { path: string; data: Uint8Array; executable: boolean };

export type TarLimits = { maxBytes: number; maxFiles: number };

export const DEFAULT_TAR_LIMITS: TarLimits = { maxBytes: 256 * 1024 * 1024, maxFiles: 20_000 };

export class TarError extends Error {}

/** Gunzip, stopping as soon as the output passes `maxBytes` (so a bomb never fills memory). */
export function gunzipCapped(gz: Uint8Array, maxBytes: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let over = false;
  const g = new Gunzip((chunk) => {
    total += chunk.length;
    if (total > maxBytes) over = true;
    else chunks.push(chunk);
  });
  const STEP = 64 * 1024;
  try {
    for (let i = 0; i < gz.length && !over; i += STEP) g.push(gz.subarray(i, Math.min(gz.length, i + STEP)), i + STEP >= gz.length);
  } catch (e) {
    throw new TarError(`the package archive is not valid gzip (${(e as Error).message})`);
  }
  if (over) throw new TarError(`the package unpacks to more than ${Math.round(maxBytes / 1024 / 1024)} MB`);
  return concatBytes(chunks, total);
}

const decoder = new TextDecoder();

function field(block: Uint8Array, start: number, length: number): string {
  const bytes = block.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function octal(block: Uint8Array, start: number, length: number): number {
  const s = field(block, start, length).trim();
  if (s === "") return 0;
  if (!/^[0-7]+$/.test(s)) throw new TarError(`a size or mode in the archive is not octal (${JSON.stringify(s)})`);
  return parseInt(s, 8);
}

/** pax extended header records ("<len> key=value\n"), for the `path` key. */
function paxPath(data: Uint8Array): string | undefined {
  const text = decoder.decode(data);
  let i = 0;
  while (i < text.length) {
    const space = text.indexOf(" ", i);
    if (space === -1) break;
    const len = Number(text.slice(i, space));
    if (!Number.isFinite(len) || len <= 0) break;
    const record = text.slice(space + 1, i + len - 1);
    const eq = record.indexOf("=");
    if (eq !== -1 && record.slice(0, eq) === "path") return record.slice(eq + 1);
    i += len;
  }
  return undefined;
}

/**
 * The package-relative path of an entry ("package/lib/a.js" → "lib/a.js"; npm strips the first
 * folder whatever its name), or null for one that would leave the package folder.
 */
export function packagePath(entry: string): string | null {
  const parts = entry.replace(/\\/g, "/").split("/").slice(1);
  const out: string[] = [];
  for (const p of parts) {
    if (p === "" || p === ".") continue;
    if (p === "..") return null;
    out.push(p);
  }
  if (out.length === 0) return null;
  if (/^[A-Za-z]:$/.test(out[0]!)) return null;
  return out.join("/");
}

/** The regular files of an npm tarball (gzipped), with paths relative to the package folder. */
export function readPackageTarball(gz: Uint8Array, limits: TarLimits = DEFAULT_TAR_LIMITS): TarFile[] {
  const tar = gunzipCapped(gz, limits.maxBytes);
  const files = new Map<string, TarFile>();
  let longName: string | undefined;
  let offset = 0;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((b) => b === 0)) break; // the end-of-archive blocks
    const size = octal(header, 124, 12);
    const type = String.fromCharCode(header[156] || 48);
    const dataStart = offset + 512;
    const dataEnd = dataStart + size;
    if (dataEnd > tar.length) throw new TarError("the package archive is truncated");
    const data = tar.subarray(dataStart, dataEnd);
    offset = dataStart + Math.ceil(size / 512) * 512;
    if (type === "x") {
      longName = paxPath(data) ?? longName;
      continue;
    }
    if (type === "L") {
      longName = field(data, 0, data.length);
      continue;
    }
    if (type === "g") continue; // global pax header: nothing npm packages use
    const magic = field(header, 257, 6);
    const prefix = magic.startsWith("ustar") ? field(header, 345, 155) : "";
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    longName = undefined;
    if (type !== "0" && type !== "\0" && type !== "7") continue; // folders are implied; links, devices and fifos are not unpacked
    const path = packagePath(name);
    if (path === null) throw new TarError(`the package archive has an entry outside its folder: ${JSON.stringify(name)}`);
    files.set(path, { path, data: data.slice(), executable: (octal(header, 100, 8) & 0o111) !== 0 });
    if (files.size > limits.maxFiles) throw new TarError(`the package has more than ${limits.maxFiles} files`);
  }
  return [...files.values()];
}
