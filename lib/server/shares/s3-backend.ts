/**
 * Shares in an S3-compatible object store (AWS S3, MinIO, R2, …), signed with SigV4 by
 * aws4fetch: `<prefix><id>.zip` and `<prefix><id>.json` in one bucket, path-style URLs.
 */
import { AwsClient } from "aws4fetch";
import { assertShareId, type ShareBackend, type ShareMeta } from "./backend";

export type S3Config = { endpoint: string; bucket: string; region?: string; accessKeyId: string; secretAccessKey: string; prefix?: string };

export class S3ShareBackend implements ShareBackend {
  private readonly client: AwsClient;
  private readonly base: string;

  constructor(private readonly cfg: S3Config) {
    this.client = new AwsClient({ accessKeyId: cfg.accessKeyId, secretAccessKey: cfg.secretAccessKey, region: cfg.region ?? "us-east-1", service: "s3" });
    this.base = `${cfg.endpoint.replace(/\/$/, "")}/${encodeURIComponent(cfg.bucket)}/${cfg.prefix ?? "shares/"}`;
  }

  private url(id: string, ext: "zip" | "json"): string {
    assertShareId(id);
    return `${this.base}${id}.${ext}`;
  }

  private async check(res: Response, what: string): Promise<Response> {
    if (!res.ok) throw new Error(`The share store answered ${res.status} to ${what}: ${(await res.text()).slice(0, 200)}`);
    return res;
  }

  async putData(id: string, data: Uint8Array) {
    await this.check(await this.client.fetch(this.url(id, "zip"), { method: "PUT", body: data as BodyInit, headers: { "content-type": "application/zip" } }), "a write");
  }
  async getData(id: string) {
    const res = await this.client.fetch(this.url(id, "zip"));
    if (res.status === 404) return undefined;
    return new Uint8Array(await (await this.check(res, "a read")).arrayBuffer());
  }
  async deleteData(id: string) {
    const res = await this.client.fetch(this.url(id, "zip"), { method: "DELETE" });
    if (res.status !== 404) await this.check(res, "a delete");
  }
  async putMeta(meta: ShareMeta) {
    await this.check(await this.client.fetch(this.url(meta.id, "json"), { method: "PUT", body: JSON.stringify(meta), headers: { "content-type": "application/json" } }), "a write");
  }
  async getMeta(id: string) {
    const res = await this.client.fetch(this.url(id, "json"));
    if (res.status === 404) return undefined;
    return (await (await this.check(res, "a read")).json()) as ShareMeta;
  }
}
