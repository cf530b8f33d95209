import { eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { courseSettingsOf } from "../../db/course-settings";
import { courseCreditSettings, signatures } from "./credit.table";

/** The courses' credit settings and officials' signatures; every function runs on the executor it is given. */
export function createCreditRepository(db: Executor) {
  const settings = courseSettingsOf(db, courseCreditSettings);
  return {
    /** The course's credit settings (undefined: the defaults). */
    creditSettingsOf: settings.of,
    /** Saves the values named, in the caller's transaction: the row as it was and is now. */
    editCreditSettings: settings.edit,

    async insertSignature(contentType: string, bytes: Buffer) {
      const [row] = await db
        .insert(signatures)
        .values({ contentType, bytes })
        .returning({ id: signatures.id });
      return row!.id;
    },

    async signatureOf(id: string) {
      const [row] = await db.select().from(signatures).where(eq(signatures.id, id));
      return row;
    },
  };
}
