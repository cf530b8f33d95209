import {
  REGULATOR_NAMES,
  type Regulator,
  type RegulatorConnection,
  type RegulatorConnectionBody,
} from "@contract";
import { KeyRoundIcon } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "../../../components/ui/button";
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from "../../../components/ui/card";
import { Field } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { LoadError } from "../../../components/ui/load-error";
import { PasswordInput } from "../../../components/ui/password-input";
import { Skeleton } from "../../../components/ui/skeleton";
import { Spinner } from "../../../components/ui/spinner";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, loadFailureHint } from "../../../lib/api-client";
import { useRegulatorConnection, useSaveRegulatorConnection } from "../api/regulator-connection";

type TextField = "parentProviderId" | "providerNumber" | "username" | "serviceUrl";

/** What each regulator's connection asks, and its credential's name. */
const SETTINGS: Partial<
  Record<
    Regulator,
    {
      description: string;
      fields: { name: TextField; label: string; inputMode?: "numeric" | "url" }[];
      secret: { name: "uploadKey" | "password"; label: string; saved: string };
    }
  >
> = {
  ce_broker: {
    description:
      "Written into each roster as it is downloaded: CE Broker's number of your parent provider and the upload key it gave you.",
    fields: [{ name: "parentProviderId", label: "Parent provider ID", inputMode: "numeric" }],
    secret: { name: "uploadKey", label: "Upload key", saved: "An upload key is saved" },
  },
  cpe_monitor: {
    description:
      "How Credo signs in to CPE Monitor's web service to send each completion: your ACPE provider number and the service's user name and password.",
    fields: [
      { name: "providerNumber", label: "ACPE provider number", inputMode: "numeric" },
      { name: "username", label: "User name" },
      { name: "serviceUrl", label: "Service address", inputMode: "url" },
    ],
    secret: { name: "password", label: "Password", saved: "A password is saved" },
  },
};

/**
 * How Credo reaches a regulator. The credential is write-only: once saved, the page says so
 * and offers to replace it, never showing it.
 */
export function ConnectionCard({ regulator }: { regulator: Regulator }) {
  const settings = SETTINGS[regulator];
  const query = useRegulatorConnection(regulator);
  if (!settings) return null;
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Connection settings</CardTitle>
        <CardDescription>{settings.description}</CardDescription>
      </CardHeader>
      <CardContent>
        {query.isPending ? (
          <Skeleton className="h-20 w-full rounded-xl" aria-hidden="true" />
        ) : query.isError ? (
          <LoadError
            message={loadFailureHint(query.error, "We couldn't load the connection settings.")}
            onRetry={() => void query.refetch()}
          />
        ) : (
          <ConnectionForm key={JSON.stringify(query.data)} connection={query.data} />
        )}
      </CardContent>
    </Card>
  );
}

function ConnectionForm({ connection }: { connection: RegulatorConnection }) {
  const { regulator } = connection;
  const settings = SETTINGS[regulator]!;
  const save = useSaveRegulatorConnection();
  const [values, setValues] = useState(() =>
    Object.fromEntries(settings.fields.map((f) => [f.name, connection[f.name]])),
  );
  const [replacing, setReplacing] = useState(!connection.secretSet);
  const [secret, setSecret] = useState("");
  const [error, setError] = useState<string | null>(null);
  const base = `connection-${regulator}`;
  // Asked to replace the saved credential, the keyboard goes on to its field.
  const asked = useRef(false);
  useEffect(() => {
    if (replacing && asked.current) document.getElementById(`${base}-secret`)?.focus();
  }, [replacing, base]);

  const textField = (f: (typeof settings.fields)[number]) => (
    <Field
      key={f.name}
      id={`${base}-${f.name}`}
      label={f.label}
      className={f.name === "serviceUrl" ? "sm:col-span-2" : undefined}
    >
      <Input
        id={`${base}-${f.name}`}
        value={values[f.name] ?? ""}
        inputMode={f.inputMode}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => setValues((v) => ({ ...v, [f.name]: e.target.value }))}
      />
    </Field>
  );

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      onSubmit={(e) => {
        e.preventDefault();
        const body: RegulatorConnectionBody = { ...values };
        // Left out, the saved credential stays.
        if (replacing && secret) body[settings.secret.name] = secret;
        setError(null);
        save.mutate(
          { regulator, body },
          {
            onSuccess: () => toast({ title: `${REGULATOR_NAMES[regulator]} connection saved` }),
            onError: (err) =>
              setError(getErrorMessage(err) ?? "The connection could not be saved."),
          },
        );
      }}
    >
      {settings.fields.filter((f) => f.name !== "serviceUrl").map(textField)}
      {/* The credential beside the user name it goes with; the address, long, on a line of its own. */}
      {replacing ? (
        <Field id={`${base}-secret`} label={settings.secret.label}>
          <PasswordInput
            id={`${base}-secret`}
            value={secret}
            autoComplete="new-password"
            toggleLabel={settings.secret.label.toLowerCase()}
            onChange={(e) => setSecret(e.target.value)}
          />
        </Field>
      ) : (
        <div className="grid content-start gap-2">
          <p className="text-sm font-medium text-zinc-900">{settings.secret.label}</p>
          <div className="flex flex-wrap items-center gap-3">
            <span className="flex items-center gap-2 text-sm text-zinc-700">
              <KeyRoundIcon className="size-4 text-emerald-700" aria-hidden="true" />
              {settings.secret.saved}
            </span>
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                asked.current = true;
                setReplacing(true);
              }}
            >
              Replace
            </Button>
          </div>
        </div>
      )}
      {settings.fields.filter((f) => f.name === "serviceUrl").map(textField)}
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-700 sm:col-span-2">
          {error}
        </p>
      ) : null}
      <div className="sm:col-span-2">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : null}
          Save connection
        </Button>
      </div>
    </form>
  );
}
