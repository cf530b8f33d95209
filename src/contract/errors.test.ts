import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { ALL_ERROR_CODES, ERROR_CODES } from "./errors";

const SERVER = join(import.meta.dirname, "..", "server");

/** Every non-test source file of the server. */
function serverSources(dir = SERVER): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return serverSources(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

/**
 * The codes the server's source raises: the first argument of an error helper, or of a
 * feature's own wrapper of one (`refuse`), after the status of `appError`, and every
 * `code: "..."` of a body the error handler builds.
 */
function raisedCodes(): Map<string, string> {
  const raised = new Map<string, string>();
  const patterns = [
    /\b(?:badRequest|unauthorized|forbidden|notFound|conflict|tooManyRequests|invalidField|refuse)\(\s*"([^"]+)"/g,
    /\bappError\(\s*\d{3},\s*"([^"]+)"/g,
    /\bcode: "([^"]+)"/g,
    /^\s+\w+: "((?:validation|request|system)\.[^"]+)",$/gm,
  ];
  for (const file of serverSources()) {
    const text = readFileSync(file, "utf8");
    for (const pattern of patterns) {
      for (const match of text.matchAll(pattern)) raised.set(match[1]!, file);
    }
  }
  return raised;
}

describe("error codes", () => {
  const raised = raisedCodes();

  it("finds the codes the server raises", () => {
    expect(raised.size).toBeGreaterThan(100);
  });

  it("declares every code raised anywhere in the server", () => {
    const undeclared = [...raised].filter(([code]) => !(code in ERROR_CODES));
    expect(undeclared).toEqual([]);
  });

  it("declares no code the server never raises", () => {
    expect(ALL_ERROR_CODES.filter((code) => !raised.has(code))).toEqual([]);
  });

  it("names each code by its feature and a snake_case reason, with an error status", () => {
    for (const [code, status] of Object.entries(ERROR_CODES)) {
      // A name may carry its standard's number (cmi5).
      expect(code).toMatch(/^[a-z][a-z0-9]*\.[a-z0-9_]+$/);
      expect(status).toBeGreaterThanOrEqual(400);
    }
  });
});
