import { useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

/**
 * A link to another screen opens it at its top, as loading a page would. The router leaves
 * the window where the previous screen was scrolled: on a phone, a course started from the
 * foot of a long page opened with its video far out of view. Back and forward keep the
 * browser's own restoring, and a link to a place in a page (`#anchor`) scrolls there itself.
 */
export function ScrollOnNavigate() {
  const { pathname, hash } = useLocation();
  const navigationType = useNavigationType();
  const shown = useRef(pathname);
  useLayoutEffect(() => {
    if (shown.current === pathname) return;
    shown.current = pathname;
    if (navigationType !== "POP" && !hash) window.scrollTo(0, 0);
  }, [pathname, hash, navigationType]);
  return null;
}
