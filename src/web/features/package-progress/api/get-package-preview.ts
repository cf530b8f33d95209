import { type PackagePreview, packagePreviewSchema } from "@contract";
import { useQuery } from "@tanstack/react-query";
import { apiRequest, readAnswer } from "../../../lib/api-client";

/** GET .../package/preview: what each item of a module's package launches, for a look. */
export function usePackagePreview(courseId: string, moduleId: string | null) {
  return useQuery({
    queryKey: ["/api/courses", courseId, "modules", moduleId, "package", "preview"],
    enabled: moduleId !== null,
    // Its links to the content expire; a preview opened again asks for fresh ones.
    staleTime: 0,
    gcTime: 0,
    queryFn: async ({ signal }): Promise<PackagePreview> => {
      const url = `/api/courses/${encodeURIComponent(courseId)}/modules/${encodeURIComponent(moduleId!)}/package/preview`;
      return readAnswer(
        packagePreviewSchema,
        url,
        await apiRequest("GET", url, undefined, { signal }),
      );
    },
  });
}
