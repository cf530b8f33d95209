/**
 * How much an AU may keep in the portal's LRS. Content reports at a person's pace and keeps a
 * few small documents (a bookmark, suspend data); these bounds are far above that, and stop a
 * script sending as the learner from filling the database that every learner shares.
 */

/** The statements and state documents the AUs of one registration may store, in bytes. */
export const REGISTRATION_STORAGE_BYTES = 16 * 1024 * 1024;

/** The agent profile documents one learner may keep, across every package, in bytes. */
export const PROFILE_STORAGE_BYTES = 4 * 1024 * 1024;

/**
 * What each stored row costs beside its bytes (its key, its times, the table's bookkeeping),
 * so that empty documents under endless new names are bounded too.
 */
export const ROW_BYTES = 128;

const textBytes = (text: string) => Buffer.byteLength(text, "utf8");

/** A state or profile document as it counts: its names, its content and its row. */
export const documentBytes = (names: string[], content: Buffer) =>
  ROW_BYTES + names.reduce((sum, name) => sum + textBytes(name), 0) + content.length;

/** A statement as it counts: its JSON and its row. */
export const statementBytes = (statement: unknown) =>
  ROW_BYTES + textBytes(JSON.stringify(statement));

const megabytes = (bytes: number) => `${bytes / 1024 / 1024} MB`;

export const REGISTRATION_FULL = [
  "this registration's statements and state documents would take more than",
  `${megabytes(REGISTRATION_STORAGE_BYTES)}.`,
].join(" ");
export const PROFILES_FULL = [
  "this learner's agent profile documents would take more than",
  `${megabytes(PROFILE_STORAGE_BYTES)}.`,
].join(" ");
