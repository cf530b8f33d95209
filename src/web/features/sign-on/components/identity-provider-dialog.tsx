import {
  type IdentityProvider,
  type IdentityProviderInput,
  SIGN_ON_PROTOCOL_LABELS,
  type SignOnProtocolName,
} from "@contract";
import { type FormEvent, useEffect, useId, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Checkbox } from "../../../components/ui/checkbox";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from "../../../components/ui/dialog";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Label } from "../../../components/ui/label";
import { NativeSelect } from "../../../components/ui/native-select";
import { Spinner } from "../../../components/ui/spinner";
import { Textarea } from "../../../components/ui/textarea";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useSaveIdentityProvider } from "../api/identity-providers";

type Form = {
  protocol: SignOnProtocolName;
  name: string;
  domains: string;
  createsLearners: boolean;
  issuer: string;
  clientId: string;
  clientSecret: string;
  scopes: string;
  emailClaim: string;
  nameClaim: string;
  metadataXml: string;
  metadataUrl: string;
  emailAttribute: string;
  nameAttribute: string;
};

function initialForm(provider?: IdentityProvider): Form {
  const blank: Form = {
    protocol: provider?.protocol ?? "oidc",
    name: provider?.name ?? "",
    domains: provider?.domains.join(", ") ?? "",
    createsLearners: provider?.createsLearners ?? false,
    issuer: "",
    clientId: "",
    clientSecret: "",
    scopes: "openid email profile",
    emailClaim: "email",
    nameClaim: "name",
    metadataXml: "",
    metadataUrl: "",
    emailAttribute: "email",
    nameAttribute: "name",
  };
  if (provider?.protocol === "oidc") {
    const { issuer, clientId, scopes, emailClaim, nameClaim } = provider;
    return { ...blank, issuer, clientId, scopes, emailClaim, nameClaim };
  }
  if (provider?.protocol === "saml") {
    return {
      ...blank,
      metadataXml: provider.metadataXml ?? "",
      metadataUrl: provider.metadataUrl ?? "",
      emailAttribute: provider.emailAttribute,
      nameAttribute: provider.nameAttribute,
    };
  }
  return blank;
}

/** What the form sends: the whole settings; a blank secret keeps the one already set. */
function inputOf(form: Form): IdentityProviderInput {
  const common = {
    name: form.name,
    domains: form.domains
      .split(/[\s,;]+/)
      .map((d) => d.trim())
      .filter(Boolean),
    createsLearners: form.createsLearners,
  };
  if (form.protocol === "oidc") {
    return {
      protocol: "oidc",
      ...common,
      issuer: form.issuer.trim(),
      clientId: form.clientId,
      ...(form.clientSecret ? { clientSecret: form.clientSecret } : {}),
      scopes: form.scopes,
      emailClaim: form.emailClaim,
      nameClaim: form.nameClaim,
    };
  }
  return {
    protocol: "saml",
    ...common,
    ...(form.metadataXml.trim() ? { metadataXml: form.metadataXml } : {}),
    ...(form.metadataUrl.trim() ? { metadataUrl: form.metadataUrl.trim() } : {}),
    emailAttribute: form.emailAttribute,
    nameAttribute: form.nameAttribute,
  };
}

type FieldError = { key: keyof Form; message: string };

/** The server's refusals of a setting that are not about one field of the request. */
const FIELD_OF_CODE: Partial<Record<string, keyof Form | "metadata">> = {
  "sso.issuer_insecure": "issuer",
  "sso.issuer_unreachable": "issuer",
  "sso.client_secret_required": "clientSecret",
  "sso.domain_taken": "domains",
  "sso.saml_metadata_required": "metadata",
  "sso.saml_metadata_invalid": "metadata",
  "sso.saml_metadata_unreachable": "metadataUrl",
  "sso.saml_metadata_insecure": "metadataUrl",
  "sso.saml_signing_certificate_missing": "metadata",
};

/**
 * The field a refusal is about, so the administrator sees it where it applies: the schema's
 * refusals name it by path (`domains.0`), the server's own by code. Metadata is read from
 * the URL when one is given, else from the pasted XML.
 */
function fieldErrorOf(err: unknown, form: Form): FieldError | undefined {
  if (!isApiError(err) || !err.serverMessage) return undefined;
  const named = err.path?.split(".")[0];
  const byCode = err.code ? FIELD_OF_CODE[err.code] : undefined;
  const key =
    named && named in form
      ? (named as keyof Form)
      : byCode === "metadata"
        ? form.metadataUrl.trim()
          ? "metadataUrl"
          : "metadataXml"
        : byCode;
  return key ? { key, message: err.serverMessage } : undefined;
}

/**
 * Adds or edits an identity provider. The server reads the provider's discovery or metadata
 * before saving and says what does not work; secrets are write-only.
 */
export function IdentityProviderDialog({
  open,
  onOpenChange,
  provider,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  provider?: IdentityProvider;
}) {
  const ids = useId();
  const [form, setForm] = useState(() => initialForm(provider));
  const [error, setError] = useState<string>();
  const [fieldError, setFieldError] = useState<FieldError>();
  const save = useSaveIdentityProvider();
  const set = <K extends keyof Form>(key: K, value: Form[K]) =>
    setForm((previous) => ({ ...previous, [key]: value }));
  const field = (key: keyof Form) => `${ids}-${key}`;
  const errorOf = (key: keyof Form) => (fieldError?.key === key ? fieldError.message : undefined);

  // Takes the administrator to the setting that was refused.
  useEffect(() => {
    if (fieldError) document.getElementById(`${ids}-${fieldError.key}`)?.focus();
  }, [fieldError, ids]);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    setError(undefined);
    setFieldError(undefined);
    save.mutate(
      { id: provider?.id, input: inputOf(form) },
      {
        onSuccess: ({ provider: saved }) => {
          toast({ title: provider ? `${saved.name} saved` : `${saved.name} added` });
          onOpenChange(false);
        },
        onError: (err) => {
          const onField = fieldErrorOf(err, form);
          if (onField) setFieldError(onField);
          else setError(getErrorMessage(err) ?? "The provider could not be saved.");
        },
      },
    );
  }

  const text = (key: keyof Form, label: string, props: { hint?: string; type?: string } = {}) => (
    <Field id={field(key)} label={label} hint={props.hint} error={errorOf(key)}>
      <Input
        id={field(key)}
        type={props.type ?? "text"}
        value={String(form[key])}
        onChange={(e) => set(key, e.target.value as never)}
        {...fieldAria(field(key), errorOf(key), { hint: !!props.hint })}
      />
    </Field>
  );

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <DialogHeader>
          <DialogTitle>
            {provider ? `Edit ${provider.name}` : "Add an identity provider"}
          </DialogTitle>
          <DialogDescription>
            People sign in through it with the account your organisation gives them.
          </DialogDescription>
        </DialogHeader>
        <form onSubmit={onSubmit} noValidate className="grid gap-4" aria-label="Identity provider">
          {provider ? null : (
            <Field id={field("protocol")} label="Protocol">
              <NativeSelect
                id={field("protocol")}
                value={form.protocol}
                onChange={(e) => set("protocol", e.target.value as SignOnProtocolName)}
              >
                <option value="oidc">{SIGN_ON_PROTOCOL_LABELS.oidc}</option>
                <option value="saml">{SIGN_ON_PROTOCOL_LABELS.saml}</option>
              </NativeSelect>
            </Field>
          )}
          {text("name", "Name", { hint: "The sign-in page shows “Continue with” and this name." })}
          {text("domains", "Email domains", {
            hint: "Comma-separated, e.g. example.com. People of these domains sign in through it.",
          })}
          {form.protocol === "oidc" ? (
            <>
              {text("issuer", "Issuer URL", { type: "url" })}
              {text("clientId", "Client ID")}
              {provider?.protocol === "oidc" && provider.secretSet ? (
                <div className="grid gap-2">
                  <p className="text-sm text-zinc-700" data-testid="secret-set">
                    A client secret is set.
                  </p>
                  {text("clientSecret", "Replace client secret", {
                    type: "password",
                    hint: "Leave blank to keep the secret that is set.",
                  })}
                </div>
              ) : (
                text("clientSecret", "Client secret", { type: "password" })
              )}
              {text("scopes", "Scopes")}
              <div className="grid gap-4 sm:grid-cols-2">
                {text("emailClaim", "Email claim")}
                {text("nameClaim", "Name claim")}
              </div>
            </>
          ) : (
            <>
              <Field
                id={field("metadataXml")}
                label="Identity provider metadata XML"
                hint="Paste the metadata, or give its URL below."
                error={errorOf("metadataXml")}
              >
                <Textarea
                  id={field("metadataXml")}
                  rows={4}
                  value={form.metadataXml}
                  onChange={(e) => set("metadataXml", e.target.value)}
                  {...fieldAria(field("metadataXml"), errorOf("metadataXml"), { hint: true })}
                  className="font-mono text-xs"
                />
              </Field>
              {text("metadataUrl", "Metadata URL", { type: "url" })}
              <div className="grid gap-4 sm:grid-cols-2">
                {text("emailAttribute", "Email attribute")}
                {text("nameAttribute", "Name attribute")}
              </div>
            </>
          )}
          <div className="flex items-start gap-2.5">
            <Checkbox
              id={field("createsLearners")}
              checked={form.createsLearners}
              onCheckedChange={(checked) => set("createsLearners", checked === true)}
            />
            <div className="grid gap-1">
              <Label htmlFor={field("createsLearners")}>May create learners</Label>
              <p className="text-xs text-zinc-600">
                Someone of these domains whom no administrator registered becomes a learner at their
                first sign-on. Off: they are refused.
              </p>
            </div>
          </div>
          {error ? (
            <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-900">
              {error}
            </p>
          ) : null}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={save.isPending}>
              {save.isPending ? <Spinner /> : null}
              {provider ? "Save provider" : "Add provider"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
