import {
  type Attributes,
  type ComponentType,
  cloneElement,
  isValidElement,
  type LazyExoticComponent,
  lazy,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  Suspense,
} from "react";

export interface DialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  trigger?: ReactNode;
}

export interface DialogLoader<P extends DialogProps> {
  preload(): Promise<ComponentType<P>>;
  Loaded: LazyExoticComponent<ComponentType<P>>;
}

/** A dialog's code as a lazy chunk; `preload()` starts its download early (once). */
export function dialogLoader<P extends DialogProps>(
  load: () => Promise<ComponentType<P>>,
): DialogLoader<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  const preload = () => {
    // A failed download (a new deployment, a dropped connection) is retried next time.
    loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  return { preload, Loaded: lazy(() => preload().then((component) => ({ default: component }))) };
}

/**
 * A dialog of the sign-in screen whose code (its form, Radix Dialog) loads after the page's
 * first render instead of with it (issue 7: the sign-in page's first load stays small).
 * Until it arrives its trigger button shows on its own, and a click on it opens the dialog
 * as soon as the code is there (the open state is the caller's).
 */
export function DeferredDialog<P extends DialogProps>({
  loader,
  ...props
}: { loader: DialogLoader<P> } & P) {
  const { trigger, onOpenChange } = props;
  const fallback = isValidElement(trigger)
    ? cloneElement(trigger as ReactElement<{ onClick?: (e: MouseEvent) => void }>, {
        onClick: () => onOpenChange(true),
      })
    : null;
  const { Loaded } = loader;
  return (
    <Suspense fallback={fallback}>
      <Loaded {...(props as unknown as P & Attributes)} />
    </Suspense>
  );
}
