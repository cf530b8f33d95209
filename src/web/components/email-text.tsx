import { Fragment } from "react";
import { cn } from "../lib/utils";

/**
 * An email address that wraps only where a reader expects it to: after the "@" and before
 * each dot, never in the middle of a name (a phone's narrow table cell would otherwise cut
 * "dana.lee@exam" | "ple.com" anywhere). A single part longer than the line still wraps
 * rather than overflowing.
 */
export function EmailText({ email, className }: { email: string; className?: string }) {
  // "dana.lee@example.com" → ["dana", ".lee@", "example", ".com"]: a break may fall
  // between any two pieces.
  const pieces = email.split(/(?=\.)|(?<=@)/);
  return (
    <span className={cn("[overflow-wrap:anywhere]", className)}>
      {pieces.map((piece, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces are the address in order.
        <Fragment key={i}>
          {i > 0 ? <wbr /> : null}
          {piece}
        </Fragment>
      ))}
    </span>
  );
}
