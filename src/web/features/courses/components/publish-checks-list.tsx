import type { CoursePublishCheck } from "@contract";
import { CircleAlertIcon, OctagonXIcon, ShieldAlertIcon } from "lucide-react";
import { cn } from "../../../lib/utils";

/** The id of a check that blocks publishing, which the Publish button is described by. */
export const publishBlockId = (index: number) => `publish-block-${index}`;

const LEAD: Record<CoursePublishCheck["severity"], string> = {
  block: "Fix before publishing: ",
  confirm: "Confirm before publishing: ",
  warning: "Warning: ",
};
const ICONS = { block: OctagonXIcon, confirm: ShieldAlertIcon, warning: CircleAlertIcon };

/**
 * What publishing the course should make its administrator aware of, beside 'Publish Course':
 * first what blocks publishing (fields of study that do not add up to the credit), then what
 * publishing asks to confirm (credit earned with manual completion, credit beyond the content's
 * length), then each module whose stated length is more than 10 % off its video's.
 */
export function PublishChecksList({ checks }: { checks: CoursePublishCheck[] }) {
  if (!checks.length) return null;
  const blocks = checks.filter((c) => c.severity === "block");
  const others = checks.filter((c) => c.severity !== "block");
  return (
    <ul
      data-testid="course-publish-checks"
      aria-label="Publish checks"
      className="grid grid-cols-1 gap-2"
    >
      {[...blocks, ...others].map((check, i) => {
        const Icon = ICONS[check.severity];
        return (
          <li
            key={`${check.key}-${check.moduleId ?? check.message}`}
            id={check.severity === "block" ? publishBlockId(i) : undefined}
            data-key={check.key}
            data-severity={check.severity}
            className={cn(
              "flex items-start gap-2.5 rounded-lg border px-3 py-2.5 text-sm",
              check.severity === "block"
                ? "border-red-200 bg-red-50 text-red-950"
                : "border-amber-200 bg-amber-50 text-amber-950",
            )}
          >
            <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span className="min-w-0 break-words">
              <span className="font-medium">{LEAD[check.severity]}</span>
              {check.message}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
