import { type ObjectPathAnswer, objectPathAnswerSchema } from "@contract";
import { apiJson } from "../../lib/api-client";

/**
 * PUT /api/objects/set-acl with the uploadURL the portal issued: the server checks the
 * finished upload and answers the object path that courses and modules store (and a
 * video's length, read from the file).
 */
export async function setObjectAcl(objectURL: string): Promise<ObjectPathAnswer> {
  return apiJson(objectPathAnswerSchema, "PUT", "/api/objects/set-acl", { objectURL });
}
