import { Trash2Icon } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { SimpleTooltip } from "../../../components/ui/tooltip";

/** The icon button that asks to delete a course (the Courses page's cards, Recent Courses). */
export function DeleteCourseButton({
  title,
  disabled,
  onDelete,
}: {
  title: string;
  /** While this course's deletion is under way. */
  disabled: boolean;
  onDelete: () => void;
}) {
  return (
    <SimpleTooltip content="Delete course">
      <Button
        variant="ghost"
        size="icon-sm"
        className="text-zinc-600 hover:bg-red-50 hover:text-red-700"
        aria-label={`Delete ${title}`}
        disabled={disabled}
        onClick={onDelete}
      >
        <Trash2Icon aria-hidden="true" />
      </Button>
    </SimpleTooltip>
  );
}
