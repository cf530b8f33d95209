import { execFileSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { is } from "drizzle-orm";
import { PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import {
  architectureDiagram,
  CONTEXT_ORDER,
  contextImports,
  featureCycles,
  readArchitecture,
} from "./testing/architecture-map";

const projectRoot = fileURLToPath(new URL("../..", import.meta.url));
const DOC = join(projectRoot, "docs/architecture.md");
const BEGIN = "<!-- generated from the code by src/server/architecture.test.ts -->";
const END = "<!-- end of generated -->";

describe("the server's bounded contexts", () => {
  const map = readArchitecture();

  it("depend one way, each only on the contexts before it", () => {
    for (const [context, targets] of contextImports(map)) {
      const before = CONTEXT_ORDER.slice(0, CONTEXT_ORDER.indexOf(context as never));
      expect(
        [...targets].filter((t) => !before.includes(t as never)),
        context,
      ).toEqual([]);
    }
  });

  it("have no features that import each other, directly or round a loop", () => {
    expect(featureCycles(map)).toEqual([]);
  });

  it("show no table on their faces: other contexts ask the owner, never name its table", async () => {
    for (const context of CONTEXT_ORDER) {
      const face: Record<string, unknown> = await import(`./${context}/index.ts`);
      const tables = Object.entries(face).filter(([, value]) => is(value, PgTable));
      expect(
        tables.map(([name]) => name),
        context,
      ).toEqual([]);
    }
  });

  it("are drawn in docs/architecture.md as the code has them", () => {
    const expected = architectureDiagram(map);
    // WRITE_ARCHITECTURE=1 rewrites the drawing after a change of the contexts.
    const doc = readFileSync(DOC, "utf8");
    const start = doc.indexOf(BEGIN);
    const end = doc.indexOf(END);
    expect(start, `docs/architecture.md needs the lines ${BEGIN} and ${END}`).toBeGreaterThan(-1);
    const drawn = doc.slice(start + BEGIN.length, end).trim();
    if (process.env.WRITE_ARCHITECTURE && drawn !== expected) {
      writeFileSync(DOC, `${doc.slice(0, start + BEGIN.length)}\n${expected}\n${doc.slice(end)}`);
      return;
    }
    expect(drawn).toBe(expected);
  });
});

/**
 * Lints one file at `path` (as if it were in the project) with the project's Biome settings,
 * in a scratch copy: the messages of the import rules it breaks.
 */
function importRulesBroken(path: string, source: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "credo-lint-"));
  try {
    copyFileSync(join(projectRoot, "biome.json"), join(dir, "biome.json"));
    mkdirSync(join(dir, dirname(path)), { recursive: true });
    writeFileSync(join(dir, path), source);
    let output = "";
    try {
      execFileSync(
        join(projectRoot, "node_modules/.bin/biome"),
        ["lint", "--vcs-enabled=false", "--only=style/noRestrictedImports", path],
        { cwd: dir, encoding: "utf8", stdio: "pipe" },
      );
    } catch (error) {
      const failed = error as { stdout: string; stderr: string };
      output = `${failed.stdout}${failed.stderr}`;
    }
    return [...output.matchAll(/× (.+)/g)]
      .map((m) => m[1]!)
      .filter((message) => !message.startsWith("Some errors"));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe("lint enforces the contexts' boundaries", () => {
  const feature = "src/server/credit/activity/probe.ts";
  const table = "src/server/credit/activity/probe.table.ts";
  const lint = (path: string, line: string) =>
    importRulesBroken(path, `${line}\nexport const used = [probe];\n`);

  it("refuses reaching past another context's face", () => {
    expect(
      lint(feature, 'import { probe } from "../../learning/enrollments/enrollments.service";'),
    ).toEqual([expect.stringContaining("only through its face")]);
  });

  it("refuses a context importing one after it", () => {
    expect(lint(feature, 'import { probe } from "../../administration";')).toEqual([
      expect.stringContaining("Contexts depend one way"),
    ]);
    expect(
      lint(table, 'import { probe } from "../../administration/reports/reports.table";'),
    ).toEqual([expect.stringContaining("Contexts depend one way")]);
  });

  it("refuses naming another feature's table outside a table file", () => {
    expect(
      lint(feature, 'import { attestations as probe } from "../attestations/attestations.table";'),
    ).toEqual([expect.stringContaining("never names another feature's table")]);
  });

  it("refuses a sibling feature's repository, routes or errors", () => {
    expect(
      lint(feature, 'import { probe } from "../attestations/attestations.repository";'),
    ).toEqual([expect.stringContaining("only through its service")]);
  });

  it("lets a table reference another context's table for a foreign key, and nothing else", () => {
    expect(lint(table, 'import { users as probe } from "../../people/auth/auth.table";')).toEqual(
      [],
    );
    expect(lint(table, 'import { probe } from "../../people/auth/auth.service";')).toEqual([
      expect.stringContaining("only for a foreign key"),
    ]);
  });

  it("lets a feature use a face before it and a sibling's service or row type", () => {
    expect(lint(feature, 'import { probe } from "../../learning";')).toEqual([]);
    expect(
      lint(
        feature,
        'import { type CertificateRow as probe } from "../certificates/certificates.table";',
      ),
    ).toEqual([]);
  });
});
