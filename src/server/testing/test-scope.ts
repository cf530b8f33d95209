/**
 * CI's second pass (PostgreSQL, Node 24) sets TEST_DATABASE_ONLY=1: it re-runs what can
 * depend on the database, and leaves out what cannot (the spawned command-line tools, the S3
 * object store), which `npm test` already ran.
 */
export const databaseOnly = process.env.TEST_DATABASE_ONLY === "1";
