import type { Licence } from "../../../contract";

/** A learner's licence as a certificate prints it: null when nothing of it is entered. */
export function licenceOf(row: Licence | undefined): Licence | null {
  if (!row) return null;
  const licence = {
    licenceType: row.licenceType,
    licenceNumber: row.licenceNumber,
    licenceState: row.licenceState,
    npn: row.npn,
  };
  return Object.values(licence).some(Boolean) ? licence : null;
}
