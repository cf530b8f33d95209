import { type UploadRequestBody, uploadUrlSchema } from "@contract";
import { apiJson } from "../../lib/api-client";

/**
 * POST /api/objects/upload: where to PUT the file's bytes. The answer is a same-origin path
 * for the local store or an absolute presigned URL for S3.
 */
export async function requestUploadUrl(body: UploadRequestBody): Promise<{ uploadURL: string }> {
  return apiJson(uploadUrlSchema, "POST", "/api/objects/upload", body);
}
