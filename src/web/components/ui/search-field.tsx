import { SearchIcon, XIcon } from "lucide-react";
import { cn } from "../../lib/utils";
import { Input } from "./input";
import { Spinner } from "./spinner";

/**
 * A list's search box: the magnifier, the field, and a button that clears it, which spins
 * while a search of the server (`searching`) is on its way.
 */
export function SearchField({
  value,
  onChange,
  label,
  placeholder,
  searching = false,
  className,
}: {
  value: string;
  onChange: (value: string) => void;
  /** The field's accessible name ("Search learners by name or email"). */
  label: string;
  placeholder: string;
  searching?: boolean;
  className?: string;
}) {
  return (
    <div className={cn("relative", className)}>
      <SearchIcon
        className="pointer-events-none absolute top-1/2 left-3 size-4 -translate-y-1/2 text-zinc-500"
        aria-hidden="true"
      />
      <Input
        type="search"
        aria-label={label}
        placeholder={placeholder}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        className="pr-10 pl-9 [&::-webkit-search-cancel-button]:hidden"
      />
      {value ? (
        <button
          type="button"
          onClick={() => onChange("")}
          aria-label="Clear search"
          className="absolute top-1/2 right-2 -translate-y-1/2 rounded-md p-1 text-zinc-500 hover:bg-zinc-100 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          {searching ? (
            <Spinner className="size-4" />
          ) : (
            <XIcon className="size-4" aria-hidden="true" />
          )}
        </button>
      ) : null}
    </div>
  );
}
