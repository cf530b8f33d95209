import type { SecondStep } from "../../../contract";
import type { Executor } from "../../db/client";
import type { UserRow } from "./auth.table";

/** A sign-in whose password was right but which waits for a second step (people/second-factor). */
export interface PendingSignIn {
  answer: { secondFactor: SecondStep };
  /** The HttpOnly cookie that binds the pending step to this browser. */
  cookie: {
    name: string;
    value: string;
    options: { path: string; httpOnly: true; sameSite: "strict"; secure: boolean; maxAge: number };
  };
}

/**
 * Where a sign-in hands over before its session starts. Given to the auth service by the
 * application, so sign-in never depends on the features that may ask for more.
 */
export interface SignInHandOver {
  /** The pending second step when the account needs one; null lets the session start. */
  begin(input: {
    user: UserRow;
    rememberMe: boolean;
    device: string | null;
  }): Promise<PendingSignIn | null>;
  /** Throws when the account may not get a session without a second step. */
  refuseWithoutSecondStep(user: UserRow): Promise<void>;
  /**
   * Ends the account's sign-ins still waiting for their second step, as its sessions end:
   * one begun with a password since changed must not finish.
   */
  endPending(tx: Executor, userId: string): Promise<void>;
}
