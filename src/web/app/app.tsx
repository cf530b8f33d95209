import { BrowserRouter } from "react-router";
import { AppProviders } from "./providers";
import { AppRoutes } from "./router";
import { ScrollOnNavigate } from "./scroll-on-navigate";

export function App() {
  return (
    // A page whose code is still loading shows its shell's loading state at once, as the
    // address bar already names it. Rendered as a transition instead, the page left behind
    // would stay on screen and take clicks meant for the next one (a dialog opened there
    // closes itself when the new page arrives).
    <BrowserRouter useTransitions={false}>
      <ScrollOnNavigate />
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
