import { isIP } from "node:net";
import type { FastifyInstance } from "fastify";
import { MESSAGES } from "../../contract";
import { appError } from "./errors";

/** Load balancers and orchestrators probe these by address, and they reveal nothing. */
const PROBES = new Set(["/api/health", "/api/ready"]);

/** The host name of a Host header value: `[::1]:5000` → `::1`, `Learn.Example.com` → lowercase. */
function hostnameOf(host: string): string {
  const bracketed = /^\[([^\]]+)\]/.exec(host);
  if (bracketed) return bracketed[1]!.toLowerCase();
  return host.replace(/:\d*$/, "").toLowerCase();
}

/**
 * DNS rebinding: a page on attacker.example can point its name at this server and then call
 * the portal as a same-origin page, Host and Origin both saying attacker.example. So only the
 * PUBLIC_URL's host name is served. Outside production, `localhost` names and address
 * literals are served too (a rebinding always uses a name), so a developer can open the
 * portal on 127.0.0.1 or a LAN address.
 */
export function registerHostGuard(
  app: FastifyInstance,
  options: { publicUrl: string; production: boolean },
) {
  const own = new URL(options.publicUrl).hostname.replace(/^\[|\]$/g, "").toLowerCase();
  const allowed = (hostname: string) =>
    hostname === own ||
    (!options.production &&
      (hostname === "localhost" || hostname.endsWith(".localhost") || isIP(hostname) !== 0));
  app.addHook("onRequest", async (request) => {
    if (PROBES.has(request.url.split("?")[0]!)) return;
    if (!allowed(hostnameOf(request.host ?? "")))
      throw appError(421, "request.wrong_host", MESSAGES.wrongHost);
  });
}
