import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** One part of a MIME message, its body decoded. */
export interface MimePart {
  headers: Record<string, string>;
  contentType: string;
  body: Buffer;
  parts: MimePart[];
}

function decode(body: string, encoding: string | undefined): Buffer {
  if (encoding === "base64") return Buffer.from(body.replace(/\s+/g, ""), "base64");
  if (encoding === "quoted-printable") {
    const soft = body.replace(/=\r?\n/g, "");
    const bytes: number[] = [];
    for (let i = 0; i < soft.length; i++) {
      if (soft[i] === "=" && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
        bytes.push(Number.parseInt(soft.slice(i + 1, i + 3), 16));
        i += 2;
      } else bytes.push(...Buffer.from(soft[i]!, "utf8"));
    }
    return Buffer.from(bytes);
  }
  return Buffer.from(body, "utf8");
}

/**
 * Parses a raw message into its parts (mailparser does not install here): enough of MIME
 * for what nodemailer writes — nested multiparts, base64 and quoted-printable.
 */
export function parseMime(raw: string): MimePart {
  const split = raw.search(/\r?\n\r?\n/);
  const head = raw.slice(0, split).replace(/\r?\n[ \t]+/g, " ");
  const body = raw.slice(split).replace(/^\r?\n\r?\n/, "");
  const headers: Record<string, string> = {};
  for (const line of head.split(/\r?\n/)) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  const contentType = headers["content-type"] ?? "text/plain";
  const boundary = /boundary="?([^";]+)"?/i.exec(contentType)?.[1];
  if (!boundary || !contentType.startsWith("multipart/")) {
    return {
      headers,
      contentType,
      body: decode(body, headers["content-transfer-encoding"]?.toLowerCase()),
      parts: [],
    };
  }
  const sections = body.split(`--${boundary}`).slice(1);
  const parts = sections
    .filter((section) => !section.startsWith("--"))
    .map((section) => parseMime(section.replace(/^\r?\n/, "").replace(/\r?\n$/, "")));
  return { headers, contentType, body: Buffer.alloc(0), parts };
}

/** Every leaf part of a message, depth first. */
export function leafParts(part: MimePart): MimePart[] {
  return part.parts.length ? part.parts.flatMap(leafParts) : [part];
}

/** The messages of an outbox directory, oldest first, each parsed. */
export function outboxMessages(dir: string): { file: string; raw: string; mime: MimePart }[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith(".eml"));
  } catch {
    return [];
  }
  return files.sort().map((file) => {
    const raw = readFileSync(join(dir, file), "utf8");
    return { file, raw, mime: parseMime(raw) };
  });
}

/**
 * The test portals' mail server refusing every message: their outbox folder becomes a file,
 * so each send fails as an unreachable server's would.
 */
export function mailServerDown(outbox: string) {
  rmSync(outbox, { recursive: true, force: true });
  writeFileSync(outbox, "not a directory");
}

/** The mail server back: an empty outbox folder again. */
export function mailServerUp(outbox: string) {
  rmSync(outbox, { recursive: true, force: true });
  mkdirSync(outbox);
}
