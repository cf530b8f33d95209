/** Where the responsible official's signature image is served. */
export const signaturePath = (signatureId: string) =>
  `/api/signatures/${encodeURIComponent(signatureId)}`;
