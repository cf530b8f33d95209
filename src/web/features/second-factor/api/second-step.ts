import {
  type NewFactor,
  passkeyCreationOptionsSchema,
  passkeyRequestOptionsSchema,
  type SecondStepProof,
  setupFinishedSchema,
  totpSetupSchema,
  userResponseSchema,
} from "@contract";
import { apiJson } from "../../../lib/api-client";

const STEP = "/api/auth/second-factor";

/** POST …/passkey-options: the challenge the pending sign-in's passkey signs. */
export const getStepPasskeyOptions = () =>
  apiJson(passkeyRequestOptionsSchema, "POST", `${STEP}/passkey-options`);

/** POST …/verify: a passkey's signature, an app code or a recovery code; answers the user. */
export async function verifySecondStep(proof: SecondStepProof) {
  return (await apiJson(userResponseSchema, "POST", `${STEP}/verify`, proof)).user;
}

/** POST …/setup/totp: the new authenticator app's secret, when the organisation requires one. */
export const startTotpSetupAtSignIn = () => apiJson(totpSetupSchema, "POST", `${STEP}/setup/totp`);

/** POST …/setup/passkey: the options a required passkey is made with. */
export const startPasskeySetupAtSignIn = () =>
  apiJson(passkeyCreationOptionsSchema, "POST", `${STEP}/setup/passkey`);

/** POST …/setup: adds the required factor; answers the user and the recovery codes. */
export const finishSetupAtSignIn = (factor: NewFactor) =>
  apiJson(setupFinishedSchema, "POST", `${STEP}/setup`, factor);
