import type { Category } from "@contract";
import { CodeXmlIcon, DatabaseIcon, PaletteIcon, SmartphoneIcon } from "lucide-react";
import { useState } from "react";
import { cn } from "../lib/utils";

/**
 * Artwork per category: soft tints beside the admin's text, vivid gradients on the learner's
 * cards where the thumbnail is the card's face.
 */
const CATEGORY_ART: Record<Category, { icon: typeof CodeXmlIcon; soft: string; vivid: string }> = {
  Development: {
    icon: CodeXmlIcon,
    soft: "from-indigo-100 to-indigo-50 text-indigo-500",
    vivid: "from-indigo-500 to-violet-600 text-white/90",
  },
  Database: {
    icon: DatabaseIcon,
    soft: "from-sky-100 to-sky-50 text-sky-600",
    vivid: "from-sky-500 to-indigo-600 text-white/90",
  },
  Mobile: {
    icon: SmartphoneIcon,
    soft: "from-violet-100 to-violet-50 text-violet-500",
    vivid: "from-violet-500 to-fuchsia-600 text-white/90",
  },
  Design: {
    icon: PaletteIcon,
    soft: "from-rose-100 to-rose-50 text-rose-500",
    vivid: "from-rose-500 to-orange-500 text-white/90",
  },
};

/**
 * A course's thumbnail (its object path is a same-origin URL), or artwork for its category
 * when there is none or it fails to load. Decorative: the title sits beside it.
 */
export function CourseThumbnail({
  src,
  category,
  tone = "soft",
  className,
  iconClassName,
}: {
  src: string | null;
  category: Category;
  tone?: "soft" | "vivid";
  className?: string;
  iconClassName?: string;
}) {
  const [failed, setFailed] = useState(false);
  if (src && !failed) {
    return (
      <img
        src={src}
        alt=""
        loading="lazy"
        decoding="async"
        onError={() => setFailed(true)}
        className={cn("bg-zinc-100 object-cover", className)}
      />
    );
  }
  const art = CATEGORY_ART[category] ?? CATEGORY_ART.Development;
  const Icon = art.icon;
  return (
    <div
      aria-hidden="true"
      data-testid="thumbnail-placeholder"
      className={cn("flex items-center justify-center bg-gradient-to-br", art[tone], className)}
    >
      <Icon className={cn("size-8", iconClassName)} strokeWidth={1.5} />
    </div>
  );
}
