import type { CoursePublishCheck } from "@contract";
import { CircleAlertIcon, ShieldAlertIcon } from "lucide-react";

/**
 * What publishing the course should make its administrator aware of, beside 'Publish Course':
 * a credit course completed manually (publishing asks to confirm) and each module whose stated
 * length is more than 10 % off its video's.
 */
export function PublishChecksList({ checks }: { checks: CoursePublishCheck[] }) {
  if (!checks.length) return null;
  return (
    <ul
      data-testid="course-publish-checks"
      aria-label="Publish checks"
      className="grid grid-cols-1 gap-2"
    >
      {checks.map((check) => {
        const Icon = check.severity === "confirm" ? ShieldAlertIcon : CircleAlertIcon;
        return (
          <li
            key={`${check.key}-${check.moduleId ?? "course"}`}
            data-key={check.key}
            className="flex items-start gap-2.5 rounded-lg border border-amber-200 bg-amber-50 px-3 py-2.5 text-sm text-amber-950"
          >
            <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-words">
              <span className="font-medium">
                {check.severity === "confirm" ? "Confirm before publishing: " : "Warning: "}
              </span>
              {check.message}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
