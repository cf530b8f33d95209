import { BrowserRouter } from "react-router";
import { AppProviders } from "./providers";
import { AppRoutes } from "./router";
import { ScrollOnNavigate } from "./scroll-on-navigate";

export function App() {
  return (
    <BrowserRouter>
      <ScrollOnNavigate />
      <AppProviders>
        <AppRoutes />
      </AppProviders>
    </BrowserRouter>
  );
}
