/** s3rver ships no types; the little the share-store contract test uses. */
declare module "s3rver" {
  export default class S3rver {
    constructor(opts: { port?: number; address?: string; silent?: boolean; directory: string; configureBuckets?: { name: string }[] });
    run(): Promise<{ port: number; address: string }>;
    close(): Promise<void>;
  }
}
