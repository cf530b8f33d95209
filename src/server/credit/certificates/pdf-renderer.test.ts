import { readdirSync, readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type Certificate, DEFAULT_DATE_FORMAT, type Transcript } from "../../../contract";
import { pdfText } from "../../testing/pdf-text";
import { createPdfRenderer } from "./pdf-renderer";

const ASSETS = { signature: null, logo: null, dateFormat: DEFAULT_DATE_FORMAT };

const certificate: Certificate = {
  id: "cert-1",
  enrollmentId: "enrollment-1",
  userId: "learner-1",
  courseId: "course-1",
  code: "ABCDEFGHJKLMNPQRSTUVWXYZ23",
  learnerName: "Ada Lovelace",
  courseTitle: "Clinical Ethics",
  courseCategory: "Medicine",
  durationHours: 2,
  credits: [],
  creditHours: 1.5,
  creditType: "AMA PRA Category 1 Credit™",
  accreditingBody: "ACCME",
  providerNumber: "P-1234",
  issuerName: "Credo Academy",
  issuerLogoUrl: null,
  examScore: null,
  examPassedAt: null,
  credit: null,
  completedAt: "2026-03-01T10:00:00.000Z",
  issuedAt: "2026-03-01T10:00:00.000Z",
  status: "valid",
  revokedAt: null,
  revokedReason: null,
  verifyUrl: "https://credo.example/verify/ABCDEFGHJKLMNPQRSTUVWXYZ23",
};

describe("PDF renderer", () => {
  const pdfs = createPdfRenderer({ threads: 1 });
  afterAll(() => pdfs.close());

  it("draws a certificate on a worker thread once, and keeps it", async () => {
    const [first, together] = await Promise.all([
      pdfs.certificate(certificate, ASSETS),
      pdfs.certificate({ ...certificate }, ASSETS),
    ]);
    expect(first.subarray(0, 5).toString()).toBe("%PDF-");
    expect(await pdfText(first)).toContain("Ada Lovelace");
    // The same content is the same PDF: drawn once, even when asked for twice at once.
    expect(together).toBe(first);
    expect(await pdfs.certificate({ ...certificate }, ASSETS)).toBe(first);
  });

  it("draws a certificate anew when its content changes (a revocation)", async () => {
    const kept = await pdfs.certificate(certificate, ASSETS);
    const revoked = await pdfs.certificate(
      {
        ...certificate,
        status: "revoked",
        revokedAt: "2026-04-01T09:00:00.000Z",
        revokedReason: "Attendance records were falsified.",
      },
      ASSETS,
    );
    expect(revoked).not.toBe(kept);
    expect(await pdfText(revoked)).toContain("REVOKED");
  });

  it("draws every transcript afresh", async () => {
    const transcript: Transcript = {
      learner: { id: "learner-1", name: "Ada Lovelace", email: "ada@example.com" },
      issuerName: "Credo Academy",
      issuerAddress: "",
      issuerContactEmail: "",
      generatedAt: "2026-05-01T12:00:00.000Z",
      totals: { courses: 0, completed: 0, credits: [] },
      entries: [],
    };
    const [one, two] = await Promise.all([
      pdfs.transcript(transcript, DEFAULT_DATE_FORMAT),
      pdfs.transcript(transcript, DEFAULT_DATE_FORMAT),
    ]);
    expect(await pdfText(one)).toContain("Ada Lovelace");
    expect(two).not.toBe(one);
  });

  it.runIf(process.platform === "linux")(
    "draws a mail's certificate on a thread of the lowest priority, a download's on the portal's",
    async () => {
      // Threads of other files' renderers may end meanwhile: only new ones are counted.
      const before = lowestPriorityThreads();
      const newSince = () => [...lowestPriorityThreads()].filter((tid) => !before.has(tid));
      const download = await pdfs.certificate({ ...certificate, id: "cert-download" }, ASSETS);
      expect(newSince()).toEqual([]);
      const forMail = await pdfs.certificate({ ...certificate, id: "cert-mail" }, ASSETS, {
        inBackground: true,
      });
      expect(newSince().length).toBeGreaterThan(0);
      expect(await pdfText(forMail)).toContain("Ada Lovelace");
      // Kept like any other: a download after the mail is not drawn again.
      expect(await pdfs.certificate({ ...certificate, id: "cert-mail" }, ASSETS)).toBe(forMail);
      expect(download).not.toBe(forMail);
    },
  );
});

/** This process's threads at nice 19, by id (Linux keeps a priority per thread). */
function lowestPriorityThreads() {
  const tids = readdirSync("/proc/self/task").filter((tid) => {
    const stat = threadStat(tid);
    // The fields after the command's closing parenthesis; the 17th of them is the nice value.
    return stat?.slice(stat.lastIndexOf(")") + 2).split(" ")[16] === "19";
  });
  return new Set(tids);
}

/** A thread's stat line, or undefined for one that ended after the directory was listed. */
function threadStat(tid: string): string | undefined {
  try {
    return readFileSync(`/proc/self/task/${tid}/stat`, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}
