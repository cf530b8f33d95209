import type { UploadRequestBody } from "@contract";
import { z } from "zod";
import { apiJson } from "../../lib/api-client";

// The server declares this answer inline in objects.routes.ts; the contract has no schema
// for it yet.
const uploadUrlResponseSchema = z.object({ uploadURL: z.string() });

/**
 * POST /api/objects/upload: where to PUT the file's bytes. The answer is a same-origin path
 * for the local store or an absolute presigned URL for S3.
 */
export async function requestUploadUrl(body: UploadRequestBody): Promise<{ uploadURL: string }> {
  return apiJson(uploadUrlResponseSchema, "POST", "/api/objects/upload", body);
}
