import {
  CPE_MONITOR_SERVICE_URL,
  REGULATOR_NAMES,
  type Regulator,
  type RegulatorConnection,
  type RegulatorConnectionBody,
} from "../../../contract";
import type { Actor } from "../../platform";
import { connectionInvalid, connectionMissing, secretsKeyMissing } from "./reporting.errors";
import { createReportingRepository } from "./reporting.repository";
import type { ReportingServiceDeps } from "./reporting.service";

/** The settings each regulator's connection takes, and the rule each is held to. */
const FIELDS: Record<
  Regulator,
  Partial<Record<keyof RegulatorConnectionBody, [RegExp, string]>>
> = {
  pars: {},
  ce_broker: {
    parentProviderId: [/^\d{1,9}$/, "The parent provider ID is CE Broker's number, digits only"],
    uploadKey: [/^\S{1,200}$/, "The upload key is the one CE Broker gave, without spaces"],
  },
  cpe_monitor: {
    providerNumber: [/^\d{1,6}$/, "The ACPE provider number is digits, such as 0197"],
    username: [/^\S{1,100}$/, "The user name has no spaces"],
    password: [/^.{1,200}$/, "Enter the password"],
    serviceUrl: [/^https?:\/\/\S+$/, "The service address starts with https://"],
  },
};
const SECRET: Partial<Record<Regulator, keyof RegulatorConnectionBody>> = {
  ce_broker: "uploadKey",
  cpe_monitor: "password",
};

/** A regulator's connection as Credo uses it: its values, and its credential opened. */
export interface OpenedConnection {
  values: Record<string, string>;
  secret: string | null;
}

/**
 * How Credo reaches each regulator: CE Broker's parent provider and upload key (written into
 * each roster as it is downloaded), CPE Monitor's provider number, user name, password and
 * service address. The credential is sealed with the portal's secrets key and never answered
 * back: the answer says only whether one is saved.
 */
export function createRegulatorConnectionsService(deps: ReportingServiceDeps) {
  const repo = createReportingRepository(deps.db);

  const answer = (
    regulator: Regulator,
    row: { connection: Record<string, string>; sealedSecret: string | null } | undefined,
  ): RegulatorConnection => ({
    regulator,
    parentProviderId: row?.connection.parentProviderId ?? "",
    providerNumber: row?.connection.providerNumber ?? "",
    username: row?.connection.username ?? "",
    serviceUrl:
      row?.connection.serviceUrl ?? (regulator === "cpe_monitor" ? CPE_MONITOR_SERVICE_URL : ""),
    secretSet: Boolean(row?.sealedSecret),
  });

  return {
    async connection(regulator: Regulator): Promise<RegulatorConnection> {
      return answer(regulator, await repo.connection(regulator));
    },

    async saveConnection(
      regulator: Regulator,
      body: RegulatorConnectionBody,
      actor: Actor,
    ): Promise<RegulatorConnection> {
      const rules = FIELDS[regulator];
      for (const [field, value] of Object.entries(body)) {
        const rule = rules[field as keyof RegulatorConnectionBody];
        if (!rule) {
          throw connectionInvalid(`${REGULATOR_NAMES[regulator]} takes no ${field}.`);
        }
        if (value !== "" && !rule[0].test(value)) throw connectionInvalid(`${rule[1]}.`);
      }
      const secretField = SECRET[regulator];
      const secret = secretField ? body[secretField] : undefined;
      if (secret && !deps.secrets) throw secretsKeyMissing();
      const saved = await deps.db.transaction(async (tx) => {
        const txRepo = createReportingRepository(tx);
        const before = await txRepo.connection(regulator);
        const values = { ...before?.connection };
        for (const [field, value] of Object.entries(body)) {
          if (field !== secretField && value !== undefined) values[field] = value;
        }
        const sealedSecret =
          secret === undefined
            ? (before?.sealedSecret ?? null)
            : secret === ""
              ? null
              : deps.secrets!.seal(secret);
        const row = await txRepo.saveConnection(regulator, values, sealedSecret);
        await deps.audit.append(tx, {
          type: "reporting.connection_updated",
          actor,
          details: {
            regulator,
            regulatorName: REGULATOR_NAMES[regulator],
            // What changed, never the credential itself.
            fields: Object.keys(body),
          },
        });
        return row;
      });
      return answer(regulator, saved);
    },

    /** The connection with its credential opened; refused while a needed value is missing. */
    async openConnection(regulator: Regulator, needed: string[]): Promise<OpenedConnection> {
      const row = await repo.connection(regulator);
      const values = { ...answer(regulator, row), ...row?.connection } as Record<string, unknown>;
      const secretField = SECRET[regulator];
      const missing = needed.filter((field) =>
        field === secretField ? !row?.sealedSecret : !values[field],
      );
      if (missing.length) throw connectionMissing(missing.map((f) => FIELD_LABELS[f] ?? f));
      if (row?.sealedSecret && !deps.secrets) throw secretsKeyMissing();
      return {
        values: Object.fromEntries(
          Object.entries(values).filter((e): e is [string, string] => typeof e[1] === "string"),
        ),
        secret: row?.sealedSecret ? deps.secrets!.open(row.sealedSecret) : null,
      };
    },
  };
}

const FIELD_LABELS: Record<string, string> = {
  parentProviderId: "CE Broker parent provider ID",
  uploadKey: "CE Broker upload key",
  providerNumber: "ACPE provider number",
  username: "CPE Monitor user name",
  password: "CPE Monitor password",
  serviceUrl: "CPE Monitor service address",
};

export type RegulatorConnections = ReturnType<typeof createRegulatorConnectionsService>;
