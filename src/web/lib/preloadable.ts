import { type ComponentType, type LazyExoticComponent, lazy } from "react";

/** A component whose code loads on demand, and can be asked for before it renders. */
export interface Preloadable<P> {
  /** Starts the download early (once); a failed one is tried again when asked again or rendered. */
  preload(): void;
  /** The component itself, rendered under a Suspense boundary. */
  Loaded: LazyExoticComponent<ComponentType<P>>;
}

/** `load`'s component as a lazy chunk that a screen may start fetching before it is needed. */
export function preloadable<P>(load: () => Promise<ComponentType<P>>): Preloadable<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  const fetchOnce = () => {
    // A failed download (a new deployment, a dropped connection) is retried next time.
    loading ??= load().catch((err: unknown) => {
      loading = null;
      throw err;
    });
    return loading;
  };
  return {
    preload: () => {
      fetchOnce().catch(() => undefined);
    },
    Loaded: lazy(() => fetchOnce().then((component) => ({ default: component }))),
  };
}
