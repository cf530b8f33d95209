import { join } from "node:path";
import type { Config } from "../config";
import { createLocalDiskStore } from "./local-disk";
import type { ObjectStore } from "./object-store";
import { createS3Store } from "./s3";

/** S3 when S3_BUCKET is set, else files in DATA_DIR/objects. */
export function createObjectStore(config: Pick<Config, "s3" | "dataDir">): ObjectStore {
  return config.s3
    ? createS3Store(config.s3, { tempDir: join(config.dataDir, "tmp") })
    : createLocalDiskStore(join(config.dataDir, "objects"));
}
