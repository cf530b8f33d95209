import { useCallback, useRef } from "react";

/**
 * A random key for one opening of a form. Made from getRandomValues, which (unlike
 * randomUUID) also works on a portal served over plain HTTP.
 */
function newIdempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * One submit per opening of a form: the form's key, made when it mounts (a dialog's form
 * mounts each time the dialog opens) or when `opening` changes (a dialog that stays
 * mounted names what it is open for), goes with every submit as Idempotency-Key, so a
 * double click or a retry after a lost answer makes one record; and a second submit while
 * the first is pending is ignored (undefined) without reaching the server. The pending
 * flag is a ref, set in the click's own tick, so two clicks in one frame cannot both pass.
 */
export function useSingleSubmit(opening?: unknown) {
  const current = useRef<{ opening: unknown; key: string } | null>(null);
  if (current.current === null || current.current.opening !== opening) {
    current.current = { opening, key: newIdempotencyKey() };
  }
  const idempotencyKey = current.current.key;
  const pending = useRef(false);
  return useCallback(
    async <R>(send: (idempotencyKey: string) => Promise<R>): Promise<R | undefined> => {
      if (pending.current) return undefined;
      pending.current = true;
      try {
        return await send(idempotencyKey);
      } finally {
        pending.current = false;
      }
    },
    [idempotencyKey],
  );
}
