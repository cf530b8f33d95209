import {
  type Attributes,
  cloneElement,
  isValidElement,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type RefObject,
  Suspense,
  useLayoutEffect,
  useRef,
} from "react";
import type { Preloadable } from "../../lib/preloadable";

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: ReactNode;
}

/**
 * A dialog of the sign-in screen whose code (its form, Radix Dialog) loads after the page's
 * first render instead of with it (the sign-in page's first load stays small).
 * Until it arrives its trigger button shows on its own, and a click on it opens the dialog
 * as soon as the code is there (the open state is the caller's). When the code arrives the
 * stand-in button is replaced by the dialog's own trigger; if the stand-in had keyboard
 * focus, the new trigger takes it over, so a keyboard user's next Enter is not lost.
 */
export function DeferredDialog<P extends DialogProps>({
  loader,
  ...props
}: { loader: Preloadable<P> } & P) {
  const { trigger, onOpenChange } = props;
  const container = useRef<HTMLSpanElement>(null);
  const standInFocused = useRef(false);
  const fallback = isValidElement(trigger)
    ? cloneElement(trigger as ReactElement<StandInProps>, {
        onClick: () => onOpenChange(true),
        onFocus: () => {
          standInFocused.current = true;
        },
        onBlur: () => {
          standInFocused.current = false;
        },
      })
    : null;
  const { Loaded } = loader;
  return (
    <span ref={container} className="contents">
      <Suspense fallback={fallback}>
        <Loaded {...(props as unknown as P & Attributes)} />
        <HandFocusOver from={standInFocused} to={container} />
      </Suspense>
    </span>
  );
}

interface StandInProps {
  onClick?: (e: MouseEvent) => void;
  onFocus?: () => void;
  onBlur?: () => void;
}

/** Mounts with the loaded dialog: moves focus to its trigger if the stand-in had it. */
function HandFocusOver({
  from,
  to,
}: {
  from: RefObject<boolean>;
  to: RefObject<HTMLElement | null>;
}) {
  useLayoutEffect(() => {
    if (!from.current) return;
    from.current = false;
    // The stand-in was removed while focused, so focus fell back to the page itself.
    const active = document.activeElement;
    if (active && active !== document.body) return;
    to.current?.querySelector<HTMLElement>("button")?.focus();
  }, [from, to]);
  return null;
}
