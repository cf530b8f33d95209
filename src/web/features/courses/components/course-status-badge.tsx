import { CircleCheckIcon, PencilLineIcon } from "lucide-react";
import { Badge } from "../../../components/ui/badge";
import { cn } from "../../../lib/utils";

/** 'Published' or 'Draft' (SPEC section 2). */
export function CourseStatusBadge({
  isPublished,
  className,
}: {
  isPublished: boolean;
  className?: string;
}) {
  return isPublished ? (
    <Badge variant="success" className={className}>
      <CircleCheckIcon aria-hidden="true" />
      Published
    </Badge>
  ) : (
    <Badge variant="warning" className={cn(className)}>
      <PencilLineIcon aria-hidden="true" />
      Draft
    </Badge>
  );
}
