/**
 * The share store of this server process, from the environment:
 *   TABULA_SHARE_BACKEND   "disk" (default) or "s3"
 *   TABULA_SHARE_DIR       disk: where shares are kept (default ./.data/shares)
 *   TABULA_SHARE_MAX_BYTES largest share accepted (default 50 MB)
 *   TABULA_S3_ENDPOINT, TABULA_S3_BUCKET, TABULA_S3_REGION, TABULA_S3_ACCESS_KEY_ID,
 *   TABULA_S3_SECRET_ACCESS_KEY, TABULA_S3_PREFIX   s3: an S3-compatible store (path-style)
 *   TABULA_TRUST_PROXY=1   take the client address for rate limits from X-Forwarded-For
 */
import path from "node:path";
import { DiskShareBackend } from "./disk-backend";
import { S3ShareBackend } from "./s3-backend";
import { ShareService } from "./service";

/** One service per configuration (a test may change the environment between requests; a server does not). */
const services = new Map<string, ShareService>();

const SETTINGS = /^TABULA_(SHARE_|S3_)/;

export function shareService(env: NodeJS.ProcessEnv = process.env): ShareService {
  const key = JSON.stringify(Object.entries(env).filter(([k]) => SETTINGS.test(k)).sort());
  let service = services.get(key);
  if (!service) {
    service = createShareService(env);
    services.set(key, service);
  }
  return service;
}

function createShareService(env: NodeJS.ProcessEnv): ShareService {
  let service: ShareService;
  const maxBytes = env.TABULA_SHARE_MAX_BYTES ? Number(env.TABULA_SHARE_MAX_BYTES) : undefined;
  if ((env.TABULA_SHARE_BACKEND ?? "disk") === "s3") {
    const need = (k: string) => {
      const v = env[k];
      if (!v) throw new Error(`TABULA_SHARE_BACKEND=s3 needs ${k}`);
      return v;
    };
    const backend = new S3ShareBackend({
      endpoint: need("TABULA_S3_ENDPOINT"),
      bucket: need("TABULA_S3_BUCKET"),
      region: env.TABULA_S3_REGION,
      accessKeyId: need("TABULA_S3_ACCESS_KEY_ID"),
      secretAccessKey: need("TABULA_S3_SECRET_ACCESS_KEY"),
      prefix: env.TABULA_S3_PREFIX,
    });
    service = new ShareService({ backend, maxBytes });
  } else {
    service = new ShareService({ backend: new DiskShareBackend(path.resolve(/*turbopackIgnore: true*/ env.TABULA_SHARE_DIR ?? ".data/shares")), maxBytes });
  }
  return service;
}

/**
 * The address rate limits count against. Only a proxy the operator runs may say who the client is
 * (`TABULA_TRUST_PROXY=1`); otherwise any client could send another X-Forwarded-For or X-Real-IP with
 * each request and never be limited, so every request counts against one shared key.
 */
export function clientKey(headers: Headers, env: NodeJS.ProcessEnv = process.env): string {
  if (env.TABULA_TRUST_PROXY === "1") {
    const first = headers.get("x-forwarded-for")?.split(",")[0]?.trim() || headers.get("x-real-ip")?.trim();
    if (first) return first;
  }
  return "direct";
}
