import "@fontsource-variable/inter";
import "./styles.css";
import { installValidationMessages } from "@contract";
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app/app";

// Every form's field errors in people's words, before any form is drawn.
installValidationMessages();

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
