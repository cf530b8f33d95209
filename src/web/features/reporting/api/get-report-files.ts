import { type Regulator, type ReportFile, reportFileSchema } from "@contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { z } from "zod";
import { apiJson } from "../../../lib/api-client";
import { regulatorsQueryKey } from "./get-regulators";

/** Where a file is downloaded, exactly as it was generated. */
export const reportFileDownloadUrl = (regulator: Regulator, fileId: string) =>
  `/api/admin/reports/regulators/${regulator}/files/${encodeURIComponent(fileId)}/download`;

/** GET /api/admin/reports/regulators/:regulator/files: the files, newest first. */
async function getReportFiles(regulator: Regulator, courseId?: string): Promise<ReportFile[]> {
  const query = courseId ? `?courseId=${encodeURIComponent(courseId)}` : "";
  return apiJson(
    z.array(reportFileSchema),
    "GET",
    `/api/admin/reports/regulators/${regulator}/files${query}`,
  );
}

const getReportFilesQueryOptions = (regulator: Regulator, courseId?: string) =>
  queryOptions({
    queryKey: [...regulatorsQueryKey, regulator, "files", courseId ?? null],
    queryFn: () => getReportFiles(regulator, courseId),
  });

export function useReportFiles(regulator: Regulator, courseId?: string) {
  return useQuery(getReportFilesQueryOptions(regulator, courseId));
}
