import { SETUP_STEPS, type SetupChecklist, type SetupStep } from "../../../contract";
import type { CreditCatalogueService } from "../../catalogue";
import type { Database } from "../../db/client";
import type { OrganisationService } from "../../platform";
import { createSetupChecklistRepository } from "./setup-checklist.repository";

/**
 * The dashboard's setup checklist, ticked from what the portal holds, never from what an
 * administrator clicked: a name certificates are issued under, a credit type the catalogue
 * offers (one made from a course's own words counts once it is confirmed), a published course.
 */
export function createSetupChecklistService(deps: {
  db: Database;
  organisation: Pick<OrganisationService, "profile">;
  creditCatalogue: Pick<CreditCatalogueService, "list">;
}) {
  const repo = createSetupChecklistRepository(deps.db);

  return {
    async checklist(userId: string): Promise<SetupChecklist> {
      const [organisation, catalogue, coursePublished, dismissed] = await Promise.all([
        deps.organisation.profile(),
        deps.creditCatalogue.list(),
        repo.anyCoursePublished(),
        repo.isDismissed(userId),
      ]);
      const done: Record<SetupStep, boolean> = {
        organisation: organisation.name !== "",
        catalogue: catalogue.types.some((type) => !type.needsReview),
        course: coursePublished,
      };
      return {
        steps: SETUP_STEPS.map((step) => ({ step, done: done[step] })),
        dismissed,
      };
    },

    dismiss: (userId: string) => repo.dismiss(userId),
  };
}

export type SetupChecklistService = ReturnType<typeof createSetupChecklistService>;
