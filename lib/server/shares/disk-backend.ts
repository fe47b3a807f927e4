/** Shares on the local disk: `<dir>/<id>.zip` and `<id>.json`, written atomically (temp + rename). */
import { promises as fs } from "node:fs";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { assertShareId, type ShareBackend, type ShareMeta } from "./backend";

export class DiskShareBackend implements ShareBackend {
  constructor(private readonly dir: string) {}

  private file(id: string, ext: "zip" | "json"): string {
    assertShareId(id);
    // A runtime data directory, not project files: keep the bundler from tracing it.
    return path.join(/*turbopackIgnore: true*/ this.dir, `${id}.${ext}`);
  }

  private async write(file: string, data: Uint8Array | string): Promise<void> {
    await fs.mkdir(this.dir, { recursive: true });
    const tmp = `${file}.${randomBytes(6).toString("hex")}.tmp`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  }

  private async read(file: string): Promise<Buffer | undefined> {
    try {
      return await fs.readFile(file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw e;
    }
  }

  putData(id: string, data: Uint8Array) {
    return this.write(this.file(id, "zip"), data);
  }
  async getData(id: string) {
    const b = await this.read(this.file(id, "zip"));
    return b ? new Uint8Array(b.buffer, b.byteOffset, b.byteLength) : undefined;
  }
  async deleteData(id: string) {
    await fs.rm(this.file(id, "zip"), { force: true });
  }
  putMeta(meta: ShareMeta) {
    return this.write(this.file(meta.id, "json"), JSON.stringify(meta));
  }
  async getMeta(id: string) {
    const b = await this.read(this.file(id, "json"));
    return b ? (JSON.parse(b.toString("utf8")) as ShareMeta) : undefined;
  }
}
