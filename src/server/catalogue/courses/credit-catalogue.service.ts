import {
  type CatalogueType,
  type CatalogueTypeBody,
  type CourseCreditBody,
  type CreditBodyBody,
  type CreditCatalogue,
  type CreditTypeBody,
  singularOf,
} from "../../../contract";
import { announceAtCommit, type ChangeFeed } from "../../db/change-feed";
import type { Database, Executor } from "../../db/client";
import type { Events } from "../../lib/events";
import type { Actor, AuditEventInput, AuditService } from "../../platform";
import { fieldChanges } from "../../platform";
import {
  bodyInUse,
  bodyNameTaken,
  bodyNotFound,
  mergeBothOffered,
  mergeIntoItself,
  offeredTwice,
  typeInUse,
  typeNameTaken,
  typeNotFound,
} from "./credit-catalogue.errors";
import { createCreditCatalogueRepository } from "./credit-catalogue.repository";
import type { CreditBodyRow, CreditCatalogueRow } from "./credit-catalogue.table";
import { type CreditOfferRow, createCreditOffersRepository } from "./credit-offers.repository";

declare module "../../lib/events" {
  interface EventMap {
    /**
     * Two catalogue types became one, inside the merging transaction: what learners already
     * claimed of `fromId` is totalled with `intoId` from now on.
     */
    "catalogue.types-merged": { fromId: string; intoId: string };
    /**
     * A catalogue type asks more of the courses offering it (fields of study), inside the
     * editing transaction: a published course must still meet what publishing asks.
     */
    "catalogue.type-tightened": { typeId: string };
  }
}

export interface CreditCatalogueServiceDeps {
  db: Database;
  events: Pick<Events, "transaction">;
  audit: Pick<AuditService, "append">;
  /** Course reads carry their types' catalogue words: every course is told of a change. */
  changes?: ChangeFeed;
}

const TYPE_FIELDS = [
  "name",
  "singularName",
  "bodyId",
  "accreditationStatement",
  "designationStatement",
  "profession",
  "regulators",
  "fieldsOfStudyRequired",
  "licenceRequired",
] as const;

const toType = (row: CreditCatalogueRow, courses: number): CatalogueType => ({
  id: row.id,
  name: row.name,
  singularName: row.singularName,
  bodyId: row.bodyId,
  accreditationStatement: row.accreditationStatement,
  designationStatement: row.designationStatement,
  profession: row.profession,
  regulators: row.regulators,
  fieldsOfStudyRequired: row.fieldsOfStudyRequired,
  licenceRequired: row.licenceRequired,
  needsReview: row.needsReview,
  courses,
});

/** A body as the catalogue answers it, with how many types name it (never its row's extras). */
const toBody = (row: CreditBodyRow, types: number) => ({
  id: row.id,
  name: row.name,
  providerNumber: row.providerNumber,
  minutesPerHour: row.minutesPerHour,
  types,
});

/** A unique index refused the row: another body or type already has that name. */
const isNameTaken = (error: unknown): boolean =>
  !!error &&
  typeof error === "object" &&
  ((error as { code?: string }).code === "23505" ||
    isNameTaken((error as { cause?: unknown }).cause));

/**
 * The organisation's credit catalogue. Bodies and types are named once here; a course offers
 * a type with its own amount. Every change is on the audit trail.
 */
export function createCreditCatalogueService(deps: CreditCatalogueServiceDeps) {
  const { db, events } = deps;
  const repo = createCreditCatalogueRepository(db);
  const coursesChanged = () => deps.changes?.announce("courses", "*");

  async function record(tx: Executor, event: Omit<AuditEventInput, "courseId">) {
    await deps.audit.append(tx, { ...event, courseId: null });
  }

  /** Runs a write whose unique name index may refuse it, as the catalogue's own answer. */
  async function named<T>(work: () => Promise<T>, taken: () => Error): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isNameTaken(error)) throw taken();
      throw error;
    }
  }

  /** The catalogue type a course's own words name, made (or brought up to date) from them. */
  async function typeByWords(
    tx: Executor,
    t: CreditTypeBody,
    bodies: CourseCreditBody["bodies"],
    actor: Actor,
  ): Promise<CreditCatalogueRow> {
    const txRepo = createCreditCatalogueRepository(tx);
    const words = bodies.find((b) => b.name.toLowerCase() === t.accreditingBody.toLowerCase());
    let bodyId: string | null = null;
    if (words) {
      let known = await txRepo.bodyByName(words.name);
      const added = known
        ? null
        : await txRepo.insertBodyUnlessNamed({
            name: words.name,
            providerNumber: words.providerNumber,
            minutesPerHour: /nasba/i.test(words.name) ? 50 : 60,
          });
      // Another course's edit added the same body at the same moment: this one reads it.
      if (!known && !added) known = await txRepo.bodyByName(words.name);
      if (added) {
        bodyId = added.id;
        await record(tx, { type: "catalogue.body_added", actor, details: { ...words } });
      } else if (known) {
        bodyId = known.id;
        if (words.providerNumber && words.providerNumber !== known.providerNumber) {
          await txRepo.updateBody(known.id, { providerNumber: words.providerNumber });
          await announceAtCommit(tx, "courses", "*");
          await record(tx, {
            type: "catalogue.body_updated",
            actor,
            details: {
              body: known.name,
              changes: fieldChanges(known, { ...known, providerNumber: words.providerNumber }, [
                "providerNumber",
              ]),
            },
          });
        }
      }
    }
    let found = await txRepo.typeByName(bodyId, t.name);
    if (!found) {
      // Named by one course's words, not by an administrator in the catalogue: it has no
      // profession and may repeat a type spelled another way, so it waits for review.
      const row = await txRepo.insertTypeUnlessNamed({
        name: t.name,
        singularName: singularOf(t.name),
        bodyId,
        accreditationStatement: t.accreditationStatement,
        designationStatement: "",
        profession: "",
        regulators: [],
        fieldsOfStudyRequired: false,
        licenceRequired: t.licenceRequired,
        needsReview: true,
      });
      if (row) {
        await record(tx, {
          type: "catalogue.type_added",
          actor,
          details: { creditType: row.name },
        });
        return row;
      }
      // Another course's edit added it meanwhile: this one offers the same type.
      found = (await txRepo.typeByName(bodyId, t.name))!;
    }
    const stated = {
      accreditationStatement: t.accreditationStatement || found.accreditationStatement,
      licenceRequired: t.licenceRequired,
    };
    const changes = fieldChanges(found, { ...found, ...stated }, [
      "accreditationStatement",
      "licenceRequired",
    ]);
    if (!changes.length) return found;
    await announceAtCommit(tx, "courses", "*");
    await record(tx, {
      type: "catalogue.type_updated",
      actor,
      details: { creditType: found.name, changes },
    });
    return (await txRepo.updateType(found.id, stated))!;
  }

  async function checkBody(tx: Executor, bodyId: string | null) {
    if (bodyId && !(await createCreditCatalogueRepository(tx).body(bodyId))) throw bodyNotFound();
  }

  return {
    async list(): Promise<CreditCatalogue> {
      const [bodies, types] = await Promise.all([repo.bodies(), repo.types()]);
      return { bodies, types: types.map((t) => toType(t.row, t.courses)) };
    },

    async addBody(body: CreditBodyBody, actor: Actor) {
      return named(
        () =>
          db.transaction(async (tx) => {
            const row = await createCreditCatalogueRepository(tx).insertBody(body);
            await record(tx, { type: "catalogue.body_added", actor, details: { ...body } });
            return toBody(row, 0);
          }),
        () => bodyNameTaken(body.name),
      );
    },

    async updateBody(id: string, body: CreditBodyBody, actor: Actor) {
      const row = await named(
        () =>
          db.transaction(async (tx) => {
            const txRepo = createCreditCatalogueRepository(tx);
            const before = await txRepo.body(id);
            if (!before) throw bodyNotFound();
            const after = (await txRepo.updateBody(id, body))!;
            await announceAtCommit(tx, "courses", "*");
            const changes = fieldChanges(before, after, [
              "name",
              "providerNumber",
              "minutesPerHour",
            ]);
            if (changes.length) {
              await record(tx, {
                type: "catalogue.body_updated",
                actor,
                details: { body: after.name, changes },
              });
            }
            return toBody(after, await txRepo.typesOfBody(id));
          }),
        () => bodyNameTaken(body.name),
      );
      coursesChanged();
      return row;
    },

    async removeBody(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const txRepo = createCreditCatalogueRepository(tx);
        const body = await txRepo.body(id);
        if (!body) throw bodyNotFound();
        const types = await txRepo.typesOfBody(id);
        if (types) throw bodyInUse(types);
        await txRepo.deleteBody(id);
        await record(tx, { type: "catalogue.body_removed", actor, details: { body: body.name } });
      });
    },

    async addType(body: CatalogueTypeBody, actor: Actor): Promise<CatalogueType> {
      return named(
        () =>
          db.transaction(async (tx) => {
            await checkBody(tx, body.bodyId);
            const row = await createCreditCatalogueRepository(tx).insertType(body);
            await record(tx, {
              type: "catalogue.type_added",
              actor,
              details: { creditType: row.name, profession: row.profession },
            });
            return toType(row, 0);
          }),
        () => typeNameTaken(body.name),
      );
    },

    /**
     * Edits a type for every course offering it. Certificates already issued keep the words
     * they printed; a change of the licence rule is a change of those courses' rules.
     */
    async updateType(id: string, body: CatalogueTypeBody, actor: Actor): Promise<CatalogueType> {
      const type = await named(
        () =>
          events.transaction(db, async (tx, publish) => {
            const txRepo = createCreditCatalogueRepository(tx);
            const before = await txRepo.lockType(id);
            if (!before) throw typeNotFound();
            await checkBody(tx, body.bodyId);
            const after = (await txRepo.updateType(id, body))!;
            await announceAtCommit(tx, "courses", "*");
            const changes = fieldChanges(before, after, [...TYPE_FIELDS], {
              namesOnly: ["accreditationStatement", "designationStatement"],
            });
            if (changes.length) {
              await record(tx, {
                type: "catalogue.type_updated",
                actor,
                details: { creditType: after.name, changes },
              });
            }
            const offering = await txRepo.coursesOffering(id);
            if (after.fieldsOfStudyRequired && !before.fieldsOfStudyRequired) {
              await publish("catalogue.type-tightened", { typeId: id });
            }
            if (before.licenceRequired !== after.licenceRequired) {
              for (const c of offering) {
                await publish("course.rules-changed", { courseId: c.courseId });
              }
            }
            return toType(after, offering.length);
          }),
        () => typeNameTaken(body.name),
      );
      coursesChanged();
      return type;
    },

    /** Takes a type made from the courses' own types as the catalogue's. */
    async confirmType(id: string, actor: Actor): Promise<CatalogueType> {
      return db.transaction(async (tx) => {
        const txRepo = createCreditCatalogueRepository(tx);
        const before = await txRepo.lockType(id);
        if (!before) throw typeNotFound();
        const after = (await txRepo.updateType(id, { needsReview: false }))!;
        if (before.needsReview) {
          await record(tx, {
            type: "catalogue.type_confirmed",
            actor,
            details: { creditType: after.name },
          });
        }
        return toType(after, (await txRepo.coursesOffering(id)).length);
      });
    },

    /**
     * Merges a type into another: the courses offering it offer the other, with their own
     * amounts, and learners' claims of it are totalled with the other's. Refused while a
     * course offers both, which would then offer one type twice.
     */
    async mergeType(id: string, intoId: string, actor: Actor): Promise<CatalogueType> {
      if (id === intoId) throw mergeIntoItself();
      const merged = await events.transaction(db, async (tx, publish) => {
        const txRepo = createCreditCatalogueRepository(tx);
        // Locked in one order, whichever way round: two opposite merges never deadlock.
        const locked = new Map<string, Awaited<ReturnType<typeof txRepo.lockType>>>();
        for (const key of [id, intoId].sort()) locked.set(key, await txRepo.lockType(key));
        const [from, into] = [locked.get(id), locked.get(intoId)];
        if (!from || !into) throw typeNotFound();
        const offering = await txRepo.coursesOffering(id);
        const intoOffering = await txRepo.coursesOffering(intoId);
        const both = intoOffering.filter((c) => offering.some((o) => o.courseId === c.courseId));
        if (both.length) throw mergeBothOffered(both.length);
        await txRepo.repoint(id, intoId);
        await announceAtCommit(tx, "courses", "*");
        await publish("catalogue.types-merged", { fromId: id, intoId });
        await txRepo.deleteType(id);
        await record(tx, {
          type: "catalogue.type_merged",
          actor,
          details: {
            creditType: from.name,
            mergedInto: into.name,
            courses: offering.length,
          },
        });
        for (const c of offering) await publish("course.rules-changed", { courseId: c.courseId });
        // No course offered both, so the merged type's courses are the two lists together.
        return toType(into, intoOffering.length + offering.length);
      });
      coursesChanged();
      return merged;
    },

    /** Removes a type no course offers; one that is offered is merged instead. */
    async removeType(id: string, actor: Actor): Promise<void> {
      await db.transaction(async (tx) => {
        const txRepo = createCreditCatalogueRepository(tx);
        const type = await txRepo.lockType(id);
        if (!type) throw typeNotFound();
        const offering = await txRepo.coursesOffering(id);
        if (offering.length) throw typeInUse(offering.length);
        await txRepo.deleteType(id);
        await record(tx, {
          type: "catalogue.type_removed",
          actor,
          details: { creditType: type.name },
        });
      });
    },

    /**
     * Replaces a course's credit offer, in the transaction that locked the course. A type
     * naming its catalogue type takes that type's words; one sent by its words is found in
     * the catalogue by body and name, and added there for review when new (its statement and licence
     * rule, when given, become the catalogue's: a type has one set of words everywhere).
     */
    async saveOffer(tx: Executor, courseId: string, body: CourseCreditBody, actor: Actor) {
      const txRepo = createCreditCatalogueRepository(tx);
      const offers: CreditOfferRow[] = [];
      for (const t of body.types) {
        const type = t.catalogueTypeId
          ? await txRepo.lockType(t.catalogueTypeId)
          : await typeByWords(tx, t, body.bodies, actor);
        if (!type) throw typeNotFound();
        offers.push({
          id: t.id,
          catalogueTypeId: type.id,
          amount: t.amount,
          designationStatement: t.designationStatement,
          claimStep: t.claimStep,
        });
      }
      await named(
        () => createCreditOffersRepository(tx).replace(courseId, offers),
        () => offeredTwice(),
      );
    },
  };
}

export type CreditCatalogueService = ReturnType<typeof createCreditCatalogueService>;
