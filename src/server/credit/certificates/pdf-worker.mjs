// A PDF renderer thread. The server runs from TypeScript sources through tsx, and a worker
// thread starts with none of its parent's module hooks, so it registers tsx itself.
import { register } from "tsx/esm/api";

register();
const { renderPdf } = await import("./pdf-jobs.ts");

export default renderPdf;
