import { EMPTY_IDENTIFIERS, type Identifiers } from "../../../contract";
import type { Executor } from "../../db/client";
import { createIdentifiersRepository } from "./identifiers.repository";

/**
 * The learner's identifiers as they stand (empty until they give any), for the features that
 * decide by them: the certificate's licence rule and what it prints, and what a claim copies
 * for its regulators. Reads in the caller's transaction, so a value saved in it counts.
 */
export async function identifiersOf(db: Executor, userId: string): Promise<Identifiers> {
  const row = await createIdentifiersRepository(db).of(userId);
  if (!row) return EMPTY_IDENTIFIERS;
  const { userId: _, updatedAt: __, ...ids } = row;
  return ids;
}
