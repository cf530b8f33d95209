import {
  DATE_FORMAT_LABELS,
  DATE_FORMATS,
  type DateFormat,
  ORGANISATION_ADDRESS_MAX,
  ORGANISATION_NAME_MAX,
  type Organisation,
  organisationBodySchema,
} from "@contract";
import { Building2Icon } from "lucide-react";
import { type FormEvent, useId, useState } from "react";
import { FileUploader } from "../../../components/file-uploader/file-uploader";
import { SettingsCard } from "../../../components/settings-card";
import { Button } from "../../../components/ui/button";
import { Field, FieldError, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";
import { Label } from "../../../components/ui/label";
import { Spinner } from "../../../components/ui/spinner";
import { Textarea } from "../../../components/ui/textarea";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage, isApiError } from "../../../lib/api-client";
import { useProductName } from "../../../lib/app-config";
import { useOrganisation } from "../../../lib/organisation";
import { useUpdateOrganisation } from "../api/update-organisation";

type FieldName = "name" | "logoPath" | "address" | "contactEmail" | "dateFormat";

/**
 * The "Organisation" card of the admin settings: the issuer every certificate, transcript and
 * email names (name, logo, address, contact email), and the date format they print.
 */
export function OrganisationSettingsCard() {
  return (
    <SettingsCard
      icon={Building2Icon}
      title="Organisation"
      description="The issuer of your certificates, transcripts and emails: learners and licensing boards see this name, logo and contact."
      query={useOrganisation()}
      loadingLabel="Loading the organisation"
      loadFailure="The organisation could not be loaded."
      skeletonHeight="h-40"
    >
      {(organisation) => <OrganisationForm initial={organisation} />}
    </SettingsCard>
  );
}

function OrganisationForm({ initial }: { initial: Organisation }) {
  const ids = useId();
  const id = (name: string) => `${ids}-${name}`;
  const productName = useProductName();
  const [name, setName] = useState(initial.name);
  const [logoPath, setLogoPath] = useState(initial.logoPath);
  const [address, setAddress] = useState(initial.address);
  const [contactEmail, setContactEmail] = useState(initial.contactEmail);
  const [dateFormat, setDateFormat] = useState<DateFormat>(initial.dateFormat);
  const [uploading, setUploading] = useState(false);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const save = useUpdateOrganisation();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const parsed = organisationBodySchema.safeParse({
      name,
      logoPath,
      address,
      contactEmail,
      dateFormat,
    });
    if (!parsed.success) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as FieldName;
        found[field] ??= issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    save.mutate(parsed.data, {
      onSuccess: () => toast({ title: "Organisation saved" }),
      onError: (err) => {
        const field = isApiError(err) ? err.path?.split(".")[0] : undefined;
        if (field) setErrors({ [field as FieldName]: getErrorMessage(err) });
        toast({
          variant: "destructive",
          title: "Organisation not saved",
          description: getErrorMessage(err) ?? "Please try again.",
        });
      },
    });
  }

  return (
    <form onSubmit={onSubmit} noValidate className="grid gap-5">
      <Field
        id={id("name")}
        label="Organisation name"
        hint={`Printed as the issuer. Left empty, certificates are issued by ${productName}.`}
        error={errors.name}
      >
        <Input
          id={id("name")}
          value={name}
          maxLength={ORGANISATION_NAME_MAX}
          placeholder={productName}
          autoComplete="organization"
          onChange={(e) => setName(e.target.value)}
          {...fieldAria(id("name"), errors.name, { hint: true })}
        />
      </Field>
      <div className="grid grid-cols-1 gap-2">
        <div className="flex items-baseline justify-between gap-2">
          <Label id={id("logo-label")}>Logo</Label>
          <span className="text-xs text-zinc-500">Optional</span>
        </div>
        <FileUploader
          kind="logo"
          value={logoPath}
          onChange={setLogoPath}
          onBusyChange={setUploading}
          labelledBy={id("logo-label")}
          currentLabel="Current logo"
          removable
          invalid={Boolean(errors.logoPath)}
        />
        <FieldError>{errors.logoPath}</FieldError>
      </div>
      <Field
        id={id("address")}
        label="Address"
        hint="Printed on transcripts and under your emails."
        error={errors.address}
      >
        <Textarea
          id={id("address")}
          value={address}
          maxLength={ORGANISATION_ADDRESS_MAX}
          autoComplete="street-address"
          onChange={(e) => setAddress(e.target.value)}
          {...fieldAria(id("address"), errors.address, { hint: true })}
        />
      </Field>
      <Field
        id={id("email")}
        label="Contact email"
        hint="Where learners and licensing boards can write to you."
        error={errors.contactEmail}
      >
        <Input
          id={id("email")}
          type="email"
          value={contactEmail}
          autoComplete="email"
          onChange={(e) => setContactEmail(e.target.value)}
          {...fieldAria(id("email"), errors.contactEmail, { hint: true })}
        />
      </Field>
      <fieldset className="m-0 grid min-w-0 gap-2 border-0 p-0">
        <legend className="mb-2 text-sm font-medium text-zinc-900">
          Dates on certificates and transcripts
        </legend>
        <div className="grid gap-2 sm:grid-cols-3">
          {DATE_FORMATS.map((format) => (
            <label
              key={format}
              className="flex cursor-pointer items-center gap-2.5 rounded-xl border border-zinc-200 px-3 py-2.5 text-sm text-zinc-900 has-[:checked]:border-indigo-500 has-[:checked]:bg-indigo-50/60 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500"
            >
              <input
                type="radio"
                name={id("date-format")}
                value={format}
                checked={dateFormat === format}
                onChange={() => setDateFormat(format)}
                className="size-4 accent-indigo-600"
              />
              {DATE_FORMAT_LABELS[format]}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <Button type="submit" disabled={save.isPending || uploading}>
          {save.isPending ? <Spinner /> : null}
          {uploading ? "Waiting for upload..." : "Save organisation"}
        </Button>
      </div>
    </form>
  );
}
