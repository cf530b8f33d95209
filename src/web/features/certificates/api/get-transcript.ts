import { type Transcript, transcriptSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { apiJson } from "../../../lib/api-client";

export const transcriptUrl = (learnerId: string, format?: "csv" | "pdf") =>
  `/api/learners/${encodeURIComponent(learnerId)}/transcript${format ? `.${format}` : ""}`;

/** GET /api/learners/:id/transcript: the learner's own, or anyone's for administrators. */
const getTranscript = (learnerId: string): Promise<Transcript> =>
  apiJson(transcriptSchema, "GET", transcriptUrl(learnerId));

const getTranscriptQueryOptions = (learnerId: string) =>
  queryOptions({
    queryKey: ["/api/learners", learnerId, "transcript"],
    queryFn: () => getTranscript(learnerId),
  });

export function useTranscript(learnerId: string) {
  return useQuery(getTranscriptQueryOptions(learnerId));
}
