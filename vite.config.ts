import { fileURLToPath } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

const fromRoot = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: fromRoot("./src/web"),
  publicDir: fromRoot("./src/web/public"),
  plugins: [react(), tailwindcss()],
  resolve: {
    alias: {
      "@contract": fromRoot("./src/contract/index.ts"),
      "@web": fromRoot("./src/web"),
      // jsonld-signatures (CommonJS) requires this package, whose "module" build is ESM: its
      // CommonJS build keeps that interop out of the runtime every page's first load shares.
      "@digitalbazaar/security-context": fromRoot(
        "./node_modules/@digitalbazaar/security-context/js/index.js",
      ),
    },
  },
  build: {
    outDir: fromRoot("./dist/web"),
    emptyOutDir: true,
    // No inline scripts or eval: the server's Content-Security-Policy forbids them.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1500,
    // .vite/manifest.json: `npm run bench` measures what each page loads first from it.
    manifest: true,
    rolldownOptions: {
      // The contract only declares schemas and constants: a page then loads only the parts
      // it uses (the sign-in page none of the assessment schemas), not the whole contract.
      treeshake: {
        moduleSideEffects: (id: string) => !id.startsWith(fromRoot("./src/contract/")),
      },
    },
  },
  server: {
    proxy: { "/api": "http://localhost:5000", "/objects": "http://localhost:5000" },
  },
});
