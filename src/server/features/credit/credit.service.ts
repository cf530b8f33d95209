import { fileTypeFromBuffer } from "file-type";
import {
  type CreditSettingsBody,
  EMPTY_LICENCE,
  type Licence,
  SIGNATURE_MAX_BYTES,
} from "../../../contract";
import type { Database } from "../../db/client";
import type { ActivityService, Viewer } from "../activity/activity.service";
import type { EnrollmentsService } from "../enrollments/enrollments.service";
import { notAnImage, signatureNotFound } from "./credit.errors";
import { creditSettingsOf, licenceOf } from "./credit.read-model";
import { createCreditRepository } from "./credit.repository";

export interface CreditServiceDeps {
  db: Database;
  /** The activity feature: the course's row, which holds its credit settings. */
  activity: Pick<ActivityService, "course" | "save">;
  /** Enrollments: completes the courses that waited only for the learner's licence. */
  enrollments: Pick<EnrollmentsService, "settleLearner">;
}

const SIGNATURE_TYPES = new Set(["image/png", "image/jpeg"]);

/**
 * What a credit-ready certificate prints beyond the steps: the course's credit settings and
 * responsible official's signature, and the learner's licence.
 */
export function createCreditService(deps: CreditServiceDeps) {
  const { activity } = deps;
  const repo = createCreditRepository(deps.db);

  return {
    async saveCreditSettings(courseId: string, body: CreditSettingsBody, actor: Viewer) {
      return creditSettingsOf(
        await activity.save(courseId, body, { actor, type: "credit.settings_updated" }),
      );
    },

    /** Stores a PNG or JPEG checked by its bytes, not by what the browser claimed. */
    async saveSignature(courseId: string, dataUrl: string, actor: Viewer) {
      // An unknown course is a 404 before the image is looked at.
      await activity.course(courseId);
      const [head, base64] = dataUrl.split(",", 2) as [string, string];
      const bytes = Buffer.from(base64, "base64");
      const detected = await fileTypeFromBuffer(bytes);
      const declared = head.slice("data:".length, head.indexOf(";"));
      if (
        bytes.length > SIGNATURE_MAX_BYTES ||
        !detected ||
        !SIGNATURE_TYPES.has(detected.mime) ||
        detected.mime !== declared
      ) {
        throw notAnImage();
      }
      const signatureId = await repo.insertSignature(detected.mime, bytes);
      return creditSettingsOf(
        await activity.save(courseId, { signatureId }, { actor, type: "credit.signature_updated" }),
      );
    },

    async removeSignature(courseId: string, actor: Viewer) {
      return creditSettingsOf(
        await activity.save(
          courseId,
          { signatureId: null },
          { actor, type: "credit.signature_removed" },
        ),
      );
    },

    async signature(id: string) {
      const row = await repo.signatureOf(id);
      if (!row) throw signatureNotFound();
      return row;
    },

    /** A signature's image for a certificate's PDF; null when it is gone. */
    async signatureBytes(id: string): Promise<Uint8Array | null> {
      return (await repo.signatureOf(id))?.bytes ?? null;
    },

    async licence(userId: string): Promise<Licence> {
      return licenceOf(await repo.licenceOf(userId)) ?? EMPTY_LICENCE;
    },

    /** Saves the licence, then completes any course that waited only for it. */
    async saveLicence(viewer: Viewer, body: Licence): Promise<Licence> {
      await repo.saveLicence(viewer.id, body);
      if (viewer.role === "learner") await deps.enrollments.settleLearner(viewer.id, viewer);
      return body;
    },
  };
}

export type CreditService = ReturnType<typeof createCreditService>;
