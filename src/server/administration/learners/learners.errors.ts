import { invalidField } from "../../plugins/errors";

/** A learners file that cannot be imported as a whole; the message names what to fix. */
export const learnerFileInvalid = (reason: string) =>
  invalidField("learners.invalid_file", "csv", reason);
