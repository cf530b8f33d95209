import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
// @ts-expect-error s3rver ships no types
import S3rver from "s3rver";

export interface TestS3 {
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A real S3-compatible server (s3rver) on 127.0.0.1 with one bucket, for store tests. */
export async function startTestS3(): Promise<TestS3> {
  const directory = mkdtempSync(join(tmpdir(), "credo-s3-"));
  const bucket = "credo-test";
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = (await server.run()) as { port: number };
  return {
    env: {
      S3_BUCKET: bucket,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: "S3RVER",
      S3_SECRET_ACCESS_KEY: "S3RVER",
      S3_FORCE_PATH_STYLE: "true",
    },
    async close() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
