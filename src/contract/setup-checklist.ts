import { z } from "zod";

/**
 * The first steps of a new portal, shown to administrators on the dashboard until each is
 * done or they dismiss the list: who certificates are issued by, the credit on offer, and a
 * course for learners to take.
 */
export const SETUP_STEPS = ["organisation", "catalogue", "course"] as const;
export type SetupStep = (typeof SETUP_STEPS)[number];

/** GET /api/admin/setup-checklist: each step, ticked from what the portal holds. */
export const setupChecklistSchema = z.object({
  steps: z.array(z.object({ step: z.enum(SETUP_STEPS), done: z.boolean() })),
  /** This administrator put the list away; it is not shown to them again. */
  dismissed: z.boolean(),
});
export type SetupChecklist = z.infer<typeof setupChecklistSchema>;
