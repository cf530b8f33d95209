import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboxMailer } from "./mailer";

describe("outbox mailer", () => {
  let dir: string;
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps every mail to one address sent in the same millisecond", async () => {
    dir = mkdtempSync(join(tmpdir(), "credo-outbox-"));
    const instant = new Date("2026-11-23T10:00:00.123Z");
    const mailer = createOutboxMailer({
      dir,
      from: "Credo <no-reply@credo.test>",
      log: { info: () => {} },
      now: () => instant,
    });
    await Promise.all(
      Array.from({ length: 15 }, (_, i) =>
        mailer.send({
          to: "lee@example.com",
          subject: `Reset ${i}`,
          text: `mail ${i}`,
          html: `<p>mail ${i}</p>`,
        }),
      ),
    );
    const files = readdirSync(dir);
    expect(files).toHaveLength(15);
    for (const name of files)
      expect(name).toMatch(/^2026-11-23T10-00-00-123Z-[0-9a-f]{8}-lee@example\.com\.eml$/);
    const subjects = files.map(
      (name) => /Subject: (Reset \d+)/.exec(readFileSync(join(dir, name), "utf8"))?.[1],
    );
    expect(new Set(subjects).size).toBe(15);
    mailer.close();
  });
});
