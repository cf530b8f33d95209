import {
  certificateLicenceOf,
  EMPTY_LICENCE,
  firstLicence,
  type Identifiers,
  type IdentifiersBody,
  type Licence,
  type LicenceBody,
  type LicenceEntry,
  licenceEntryOf,
  type RegulatorIds,
  type RegulatorIdsBody,
  regulatorIdsOf,
} from "../../../contract";
import type { Database, Executor } from "../../db/client";
import type { EnrollmentsService } from "../../learning";
import { identifiersOf } from "./identifiers.read-model";
import { createIdentifiersRepository } from "./identifiers.repository";

export interface IdentifiersServiceDeps {
  db: Database;
  /** Enrollments: completes the courses that waited only for the learner's licence. */
  enrollments: Pick<EnrollmentsService, "settleLearner">;
}

/** Who saves: a learner's save may complete a course that waited for their licence. */
type Saver = { id: string; role: "admin" | "learner" };

const sameLicence = (a: LicenceEntry, b: LicenceEntry) =>
  a.licenceState === b.licenceState &&
  a.licenceNumber.toUpperCase() === b.licenceNumber.toUpperCase();

/**
 * The list with `entry` in the place of `replaced` (the licence a one-licence view showed),
 * or first when there was none; without it when `entry` is null. A copy of `entry` further
 * down goes, so no licence is listed twice.
 */
function replaceLicence(
  licences: LicenceEntry[],
  replaced: LicenceEntry | undefined,
  entry: LicenceEntry | null,
): LicenceEntry[] {
  const at = replaced ? licences.indexOf(replaced) : -1;
  const rest = licences.filter((l, i) => i !== at && !(entry && sameLicence(l, entry)));
  if (!entry) return rest;
  const index = at < 0 ? 0 : Math.min(at, rest.length);
  return [...rest.slice(0, index), entry, ...rest.slice(index)];
}

/**
 * The learner's one set of professional identifiers: read and saved whole by the profile,
 * partly by the attestation (in its own transaction), and through the two one-licence views
 * the profile had before (the licence with the NPN; the identifiers for regulators).
 */
export function createIdentifiersService(deps: IdentifiersServiceDeps) {
  const { db } = deps;

  /** Saves in one transaction what `change` makes of the locked record, then settles. */
  async function update(
    saver: Saver,
    change: (current: Identifiers) => IdentifiersBody,
  ): Promise<Identifiers> {
    const saved = await db.transaction(async (tx) => {
      const repo = createIdentifiersRepository(tx);
      await repo.of(saver.id, { lock: true });
      await repo.save(saver.id, change(await identifiersOf(tx, saver.id)));
      return identifiersOf(tx, saver.id);
    });
    // A course whose certificate waited only for the licence completes now.
    if (saver.role === "learner") await deps.enrollments.settleLearner(saver.id, saver);
    return saved;
  }

  return {
    mine: (userId: string) => identifiersOf(db, userId),

    /** Saves the values named; the others keep theirs. */
    save: (saver: Saver, body: IdentifiersBody) => update(saver, () => body),

    /**
     * Saves the values named in `tx`, a unit of work of the learner's (the attestation that
     * asked for them), which settles the enrollment itself.
     */
    saveIn: (tx: Executor, userId: string, body: IdentifiersBody) =>
      createIdentifiersRepository(tx).save(userId, body),

    /** The licence a certificate prints, with the NPN (empty fields when none). */
    async licence(userId: string): Promise<Licence> {
      return certificateLicenceOf(await identifiersOf(db, userId)) ?? EMPTY_LICENCE;
    },

    /** One licence with the NPN: the licence takes the place of the first. */
    async saveLicence(saver: Saver, body: LicenceBody): Promise<Licence> {
      const saved = await update(saver, (current) => ({
        licences: replaceLicence(current.licences, firstLicence(current), licenceEntryOf(body)),
        npn: body.npn,
      }));
      return certificateLicenceOf(saved) ?? EMPTY_LICENCE;
    },

    regulatorIds: async (userId: string): Promise<RegulatorIds> =>
      regulatorIdsOf(await identifiersOf(db, userId)),

    /** The identifiers for regulators, whose state licence takes the place of the first. */
    async saveRegulatorIds(saver: Saver, body: RegulatorIdsBody): Promise<RegulatorIds> {
      const { licenceState, licenceNumber, ...rest } = body;
      const saved = await update(saver, (current) => {
        const reported = current.licences.find((l) => l.licenceState && l.licenceNumber);
        const entry = licenceNumber
          ? {
              // The same licence keeps its type; another has none until the profile says.
              licenceType:
                reported && sameLicence(reported, { licenceType: "", licenceState, licenceNumber })
                  ? reported.licenceType
                  : "",
              licenceState,
              licenceNumber,
            }
          : null;
        return { ...rest, licences: replaceLicence(current.licences, reported, entry) };
      });
      return regulatorIdsOf(saved);
    },
  };
}

export type IdentifiersService = ReturnType<typeof createIdentifiersService>;
