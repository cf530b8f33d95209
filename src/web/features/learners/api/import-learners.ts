import {
  LEARNER_IMPORT_BATCH,
  type LearnerImportResult,
  type LearnerImportRow,
  learnerImportResultSchema,
} from "@contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import {
  apiJson,
  getErrorMessage,
  type Idempotent,
  isApiError,
  MalformedAnswerError,
} from "../../../lib/api-client";
import { invalidateLearnerData } from "./invalidate-learner-data";

/** POST /api/users/learners/import: one batch, registered in one transaction. */
async function importLearnerBatch(
  rows: LearnerImportRow[],
  idempotencyKey: string | undefined,
): Promise<LearnerImportResult> {
  return apiJson(
    learnerImportResultSchema,
    "POST",
    "/api/users/learners/import",
    { rows },
    { idempotencyKey },
  );
}

type ImportInput = Idempotent<{
  rows: LearnerImportRow[];
  /** Called after each committed batch with the rows done so far. */
  onProgress: (done: number) => void;
}>;

/**
 * Network failures and server errors may pass; a refusal (4xx) would only repeat, and so
 * would an answer this client cannot read.
 */
const worthRetrying = (error: unknown) => {
  if (error instanceof MalformedAnswerError) return false;
  return !isApiError(error) || error.status >= 500;
};

/**
 * Registers the rows batch after batch. A batch whose answer is lost is sent once more:
 * the server registers nobody twice, and reports the learners the lost answer had
 * registered as already registered. When a batch fails for good, the rows from it on are
 * reported as not imported, with the reason.
 */
async function importLearners({ rows, onProgress, idempotencyKey }: ImportInput) {
  const results: LearnerImportResult["rows"] = [];
  for (let start = 0; start < rows.length; start += LEARNER_IMPORT_BATCH) {
    const batch = rows.slice(start, start + LEARNER_IMPORT_BATCH);
    // One key per batch: its retry gets the lost answer itself.
    const batchKey = idempotencyKey && `${idempotencyKey}:${start}`;
    try {
      const result = await importLearnerBatch(batch, batchKey).catch((error: unknown) => {
        if (worthRetrying(error)) return importLearnerBatch(batch, batchKey);
        throw error;
      });
      results.push(...result.rows);
    } catch (error) {
      const reason = `Not imported: ${getErrorMessage(error) ?? "the server could not be reached"}`;
      for (const row of rows.slice(start)) {
        results.push({
          line: row.line,
          email: row.email,
          outcome: "rejected",
          userId: null,
          enrolled: 0,
          invited: false,
          errors: [reason],
        });
      }
      break;
    }
    onProgress(Math.min(rows.length, start + batch.length));
  }
  return results;
}

export function useImportLearners() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: importLearners,
    onSettled: () => invalidateLearnerData(queryClient),
  });
}
