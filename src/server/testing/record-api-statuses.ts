import { recordApiStatuses } from "./api-statuses";

// Vitest setup file: with RECORD_API_STATUSES set, every app the tests build records what
// it answered (see api-statuses.ts).
recordApiStatuses();
