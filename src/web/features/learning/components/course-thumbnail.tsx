import type { Category } from "@contract";
import { CodeXmlIcon, DatabaseIcon, PaletteIcon, SmartphoneIcon } from "lucide-react";
import { useState } from "react";
import { cn } from "../../../lib/utils";

const CATEGORY_ART: Record<Category, { icon: typeof CodeXmlIcon; className: string }> = {
  Development: { icon: CodeXmlIcon, className: "from-indigo-500 to-violet-600" },
  Database: { icon: DatabaseIcon, className: "from-sky-500 to-indigo-600" },
  Mobile: { icon: SmartphoneIcon, className: "from-violet-500 to-fuchsia-600" },
  Design: { icon: PaletteIcon, className: "from-rose-500 to-orange-500" },
};

/**
 * A course's thumbnail (its object path is a same-origin URL), or artwork for its
 * category when there is none or it fails to load. Decorative: the title sits beside it.
 */
export function CourseThumbnail({
  src,
  category,
  className,
}: {
  src: string | null;
  category: Category;
  className?: string;
}) {
  const [failed, setFailed] = useState(false);
  const art = CATEGORY_ART[category] ?? CATEGORY_ART.Development;
  const Icon = art.icon;
  if (src && !failed) {
    return (
      <img
        src={src}
        alt=""
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
        className={cn("size-full object-cover", className)}
      />
    );
  }
  return (
    <div
      aria-hidden="true"
      className={cn(
        "flex size-full items-center justify-center bg-gradient-to-br text-white/90",
        art.className,
        className,
      )}
    >
      <Icon className="size-1/4 max-h-12 max-w-12 min-h-5 min-w-5" strokeWidth={1.5} />
    </div>
  );
}
