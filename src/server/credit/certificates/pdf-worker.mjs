// A PDF renderer thread. The server runs from TypeScript sources through tsx, and a worker
// thread starts with none of its parent's module hooks, so it registers tsx itself.
import { setPriority } from "node:os";
import { workerData } from "node:worker_threads";
import { register } from "tsx/esm/api";

register();
const { renderPdf } = await import("./pdf-jobs.ts");

// A background thread draws with the processor time requests leave: nice 19. It lowers
// itself only once its code is loaded: loading happens once in the thread's life, and done
// at the lowest priority it held a busy portal's first mails back for many seconds, while
// drawing is what repeats under load. Linux keeps a priority per thread, so this lowers
// this thread's alone; elsewhere it would lower the whole portal's, so there the thread
// keeps the portal's.
if (workerData?.inBackground && process.platform === "linux") setPriority(19);

export default renderPdf;
