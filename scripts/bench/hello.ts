/**
 * Baseline: a bare Fastify hello-world route (no plugins, no logging), in its own process.
 * `node --import tsx scripts/bench/hello.ts <port>`; prints "ready" once listening.
 */
import Fastify from "fastify";

const app = Fastify({ logger: false });
app.get("/", async () => ({ hello: "world" }));
await app.listen({ port: Number(process.argv[2] ?? 5990), host: "127.0.0.1" });
process.stdout.write("ready\n");
process.once("SIGTERM", () => void app.close().then(() => process.exit(0)));
