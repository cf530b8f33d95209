import { CAPTION_MESSAGES, type Course, type Module } from "@contract";
import { CaptionsIcon, CaptionsOffIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";
import { useCaptionCoverage } from "../api/get-caption-coverage";

const moduleIdsOf = (course: Course) => course.modules.map((m) => m.id);

/** The languages of each module's captions, by module id; undefined while loading. */
function useLanguagesByModule(course: Course) {
  const { data } = useCaptionCoverage(course.id, moduleIdsOf(course));
  return data ? new Map(data.modules.map((m) => [m.moduleId, m.languages])) : undefined;
}

/**
 * The course page's warning when modules have no captions (WCAG 2.1 SC 1.2.2). It informs
 * and never blocks publishing: a course may be published before its captions are ready.
 */
export function MissingCaptionsNotice({ course }: { course: Course }) {
  const languages = useLanguagesByModule(course);
  if (!languages) return null;
  // Captions belong to videos; a package module carries its own.
  const missing = course.modules.filter(
    (m) => m.kind === "video" && (languages.get(m.id) ?? []).length === 0,
  ).length;
  if (missing === 0) return null;
  return (
    <div
      data-testid="missing-captions-notice"
      className="mx-5 mb-4 flex items-start gap-2.5 rounded-xl border border-amber-200 bg-amber-50 px-3.5 py-3 text-sm text-amber-950 sm:mx-6"
    >
      <CaptionsOffIcon className="mt-0.5 size-4 shrink-0 text-amber-700" aria-hidden="true" />
      <p>
        {course.isPublished
          ? CAPTION_MESSAGES.missingCaptions(missing)
          : CAPTION_MESSAGES.missingCaptionsDraft(missing)}{" "}
        Use the captions button of each module to add them.
      </p>
    </div>
  );
}

/** A module's caption state beside its title: the languages, or a warning that there are none. */
export function CaptionsBadge({ course, module }: { course: Course; module: Module }) {
  const languages = useLanguagesByModule(course)?.get(module.id);
  if (!languages || module.kind !== "video") return null;
  return languages.length === 0 ? (
    <Badge variant="warning" className="w-fit" data-testid="no-captions-badge">
      <CaptionsOffIcon aria-hidden="true" />
      No captions
    </Badge>
  ) : (
    <Badge variant="secondary" className="w-fit" data-testid="captions-badge">
      <CaptionsIcon aria-hidden="true" />
      <span className="sr-only">Captions:</span>
      {languages.join(", ")}
    </Badge>
  );
}
