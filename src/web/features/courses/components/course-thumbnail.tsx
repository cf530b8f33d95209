import type { Category } from "@contract";
import { CodeXmlIcon, DatabaseIcon, PaletteIcon, SmartphoneIcon } from "lucide-react";
import { cn } from "../../../lib/utils";

const PLACEHOLDERS: Record<Category, { icon: typeof CodeXmlIcon; className: string }> = {
  Development: { icon: CodeXmlIcon, className: "from-indigo-100 to-indigo-50 text-indigo-500" },
  Database: { icon: DatabaseIcon, className: "from-sky-100 to-sky-50 text-sky-600" },
  Mobile: { icon: SmartphoneIcon, className: "from-violet-100 to-violet-50 text-violet-500" },
  Design: { icon: PaletteIcon, className: "from-rose-100 to-rose-50 text-rose-500" },
};

/** A course's image, or a calm placeholder drawn from its category when it has none. */
export function CourseThumbnail({
  src,
  category,
  className,
  iconClassName,
}: {
  src: string | null;
  category: Category;
  className?: string;
  iconClassName?: string;
}) {
  if (src) {
    return (
      <img
        src={src}
        alt=""
        loading="lazy"
        decoding="async"
        className={cn("bg-zinc-100 object-cover", className)}
      />
    );
  }
  const { icon: Icon, className: tone } = PLACEHOLDERS[category];
  return (
    <div
      aria-hidden="true"
      data-testid="thumbnail-placeholder"
      className={cn("flex items-center justify-center bg-gradient-to-br", tone, className)}
    >
      <Icon className={cn("size-8", iconClassName)} strokeWidth={1.5} />
    </div>
  );
}
