import { z } from "zod";
import { apiJson } from "../../lib/api-client";

// The server declares this answer inline in objects.routes.ts; the contract has no schema
// for it yet.
const setAclResponseSchema = z.object({ objectPath: z.string() });

/**
 * PUT /api/objects/set-acl with the uploadURL the portal issued: the server checks the
 * finished upload and answers the object path that courses and modules store.
 */
export async function setObjectAcl(objectURL: string): Promise<{ objectPath: string }> {
  return apiJson(setAclResponseSchema, "PUT", "/api/objects/set-acl", { objectURL });
}
