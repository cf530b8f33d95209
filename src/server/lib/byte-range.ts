import type { ByteRange } from "../storage/object-store";

/**
 * The bytes a Range header asks of a file of `size` bytes (RFC 9110 §14.1.2): one range,
 * open-ended or a suffix; "unsatisfiable" when it starts past the end; undefined when the
 * header asks for no single range this reads (several ranges, another unit, bad syntax),
 * which the whole file answers.
 */
export function byteRangeOf(
  header: string | undefined,
  size: number,
): ByteRange | "unsatisfiable" | undefined {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === "" && m[2] === "")) return undefined;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? Number.POSITIVE_INFINITY : Number(m[2]);
  if (end < start) return undefined;
  if (start >= size) return "unsatisfiable";
  return { start, end: Math.min(end, size - 1) };
}
