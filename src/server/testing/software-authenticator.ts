import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { isoCBOR } from "@simplewebauthn/server/helpers";

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  counter: number;
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();
const b64url = (data: Buffer | Uint8Array) => Buffer.from(data).toString("base64url");
const uint32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};
/** User present, user verified; with attested credential data when a key is made. */
const FLAGS_GET = 0x05;
const FLAGS_CREATE = 0x45;

/**
 * A WebAuthn authenticator in software, as the API tests' browser: it makes EC P-256 keys
 * ("none" attestation) and signs authenticatorData || SHA-256(clientDataJSON) with them, the
 * protocol a real passkey speaks, so the server's verification runs unchanged.
 */
export function createSoftwareAuthenticator(relyingParty: { id: string; origin: string }) {
  const credentials: Credential[] = [];
  const rpIdHash = sha256(relyingParty.id);
  const clientData = (type: string, challenge: string, origin = relyingParty.origin) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    /** Answers navigator.credentials.create() for the options the server gave. */
    register(options: { challenge: string }) {
      const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
      const jwk = publicKey.export({ format: "jwk" });
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x!, "base64url")],
          [-3, Buffer.from(jwk.y!, "base64url")],
        ]),
      );
      const credential: Credential = { id: randomBytes(16), privateKey, counter: 0 };
      credentials.push(credential);
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(credential.id.length);
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([FLAGS_CREATE]),
        uint32(0),
        Buffer.alloc(16),
        idLength,
        credential.id,
        Buffer.from(cose),
      ]);
      const attestationObject = isoCBOR.encode(
        new Map<string, string | Uint8Array | Map<string, string>>([
          ["fmt", "none"],
          ["attStmt", new Map<string, string>()],
          ["authData", authData],
        ]),
      );
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: "public-key" as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientData("webauthn.create", options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ["internal" as const],
        },
      };
    },

    /**
     * Answers navigator.credentials.get(): signs the challenge with the `index`-th key made
     * (the latest by default), whatever the options allow, as a hostile client could.
     */
    assert(options: { challenge: string }, index = credentials.length - 1) {
      const credential = credentials[index];
      if (!credential) throw new Error("the authenticator holds no such passkey");
      credential.counter += 1;
      const authData = Buffer.concat([
        rpIdHash,
        Buffer.from([FLAGS_GET]),
        uint32(credential.counter),
      ]);
      const clientDataJSON = clientData("webauthn.get", options.challenge);
      const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), {
        key: credential.privateKey,
        dsaEncoding: "der",
      });
      return {
        id: b64url(credential.id),
        rawId: b64url(credential.id),
        type: "public-key" as const,
        clientExtensionResults: {},
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
        },
      };
    },
  };
}
