import type { Config } from "../config";

/**
 * Content-Security-Policy the built client satisfies: no inline scripts, no eval.
 * Inline style attributes are allowed because React and Radix position popovers with them.
 */
export function contentSecurityPolicy(config: Config): Record<string, string[] | null> {
  const storage = config.s3?.endpoint ? [new URL(config.s3.endpoint).origin] : [];
  const s3Hosts = config.s3 && !config.s3.endpoint ? ["https://*.amazonaws.com"] : [];
  // The Firebase web SDK's endpoints, only when the identity service is configured; in
  // development and tests the Auth emulator instead (config.ts refuses it in production).
  const firebase = config.firebase
    ? config.firebase.emulatorHost
      ? [`http://${config.firebase.emulatorHost}`]
      : [
          "https://identitytoolkit.googleapis.com",
          "https://securetoken.googleapis.com",
          `https://${config.firebase.authDomain}`,
        ]
    : [];
  return {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", "data:", "blob:", ...storage, ...s3Hosts],
    mediaSrc: ["'self'", "blob:", ...storage, ...s3Hosts],
    connectSrc: ["'self'", ...storage, ...s3Hosts, ...firebase],
    fontSrc: ["'self'", "data:"],
    frameSrc: config.firebase ? [`https://${config.firebase.authDomain}`] : ["'none'"],
    objectSrc: ["'none'"],
    // The client sets no <base>; 'none' stops an injected one from re-rooting relative URLs.
    baseUri: ["'none'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    // Off in development so the portal works over plain http on a LAN address.
    upgradeInsecureRequests: config.production ? [] : null,
  };
}
