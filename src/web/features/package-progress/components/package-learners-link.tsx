import type { Course, Module } from "@contract";
import { UsersIcon } from "lucide-react";
import { Link } from "react-router";
import { Button } from "../../../components/ui/button";
import { SimpleTooltip } from "../../../components/ui/tooltip";

/** A package module's way to its learners' attempts (a video module has none). */
export function PackageLearnersLink({ course, module }: { course: Course; module: Module }) {
  if (module.kind === "video") return null;
  return (
    <SimpleTooltip content="Learners and attempts">
      <Button asChild variant="ghost" size="icon-sm" className="text-zinc-600">
        <Link
          to={`/admin/courses/${encodeURIComponent(course.id)}/modules/${encodeURIComponent(module.id)}/learners`}
          aria-label={`Learners and attempts of ${module.title}`}
        >
          <UsersIcon aria-hidden="true" />
        </Link>
      </Button>
    </SimpleTooltip>
  );
}
