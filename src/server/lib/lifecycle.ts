import type { FastifyInstance } from "fastify";

/** The names of a service's methods that take no argument. */
type Task<T> = { [K in keyof T]: T[K] extends () => unknown ? K : never }[keyof T];

/** Runs `service[task]()` once the portal is ready, before it takes requests. */
export function whenReady<T>(app: FastifyInstance, service: T, task: Task<T>): void {
  app.addHook("onReady", async () => {
    await (service[task] as () => unknown).call(service);
  });
}

/** Runs `service[task]()` when the portal closes: on shutdown, or when a test closes it. */
export function whenClosing<T>(app: FastifyInstance, service: T, task: Task<T>): void {
  app.addHook("onClose", async () => {
    await (service[task] as () => unknown).call(service);
  });
}
