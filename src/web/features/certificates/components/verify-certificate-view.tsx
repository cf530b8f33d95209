import {
  CERTIFICATE_CODE_INVALID,
  type CertificateDocument,
  type CertificateField,
  type CredentialResult,
  certificateDocument,
  fieldOfStudyLabel,
  formatCertificateCode,
  type PublicCertificate,
} from "@contract";
import { BadgeCheckIcon, SearchXIcon, ShieldXIcon } from "lucide-react";
import type { ReactNode } from "react";
import { Logo } from "../../../components/logo";
import { Skeleton } from "../../../components/ui/skeleton";
import { loadFailureHint } from "../../../lib/api-client";
import { useDates } from "../../../lib/dates";
import { useDateFormat } from "../../../lib/organisation";
import { cn } from "../../../lib/utils";
import { useCredentialCheck } from "../api/check-credential";
import { cannotBeACode, isInvalidCode, useVerifyCertificate } from "../api/verify-certificate";
import { signaturePath } from "../certificate-credit";
import { BrowserCredentialCheck } from "./browser-credential-check";
import { CREDENTIAL_TONES } from "./credential-check-parts";
import { CredentialFileCheck } from "./credential-file-check";
import { VerifyCodeForm } from "./verify-code-form";

/**
 * The public verification page: anyone with the code or the QR code sees
 * whether the certificate is valid or revoked, and the certificate's own details only.
 */
export function VerifyCertificateView({
  code,
  productName,
  signedIn,
}: {
  code: string;
  productName: string;
  /** Someone is signed in: the certificate's learner or an administrator may fetch its credential. */
  signedIn: boolean;
}) {
  const query = useVerifyCertificate(code);
  return (
    <div className="min-h-dvh bg-gradient-to-b from-zinc-100 to-zinc-50">
      <header className="border-b border-zinc-200 bg-white">
        <div className="mx-auto flex h-16 w-full max-w-3xl items-center justify-between gap-3 px-4 sm:px-6">
          <Logo name={productName} />
          <span className="text-xs font-medium tracking-wide text-zinc-600 uppercase">
            Certificate verification
          </span>
        </div>
      </header>
      <main id="main" className="mx-auto grid w-full max-w-3xl gap-8 px-4 py-8 sm:px-6 sm:py-12">
        {!code ? (
          <section className="grid gap-6 rounded-2xl border border-zinc-200 bg-white p-6 sm:p-8">
            <div className="grid gap-2">
              <h1 className="text-2xl font-semibold tracking-tight text-zinc-950">
                Verify a certificate
              </h1>
              <p className="text-sm text-zinc-600">
                Type the code printed on a certificate to see whether it is valid, and what it was
                issued for.
              </p>
            </div>
            <VerifyCodeForm />
          </section>
        ) : cannotBeACode(code) || isInvalidCode(query.error) ? (
          <Notice
            icon={<SearchXIcon className="size-7" aria-hidden="true" />}
            title="Not a certificate code"
            tone="zinc"
          >
            {CERTIFICATE_CODE_INVALID} Check that the address or code was copied completely.
          </Notice>
        ) : query.isPending ? (
          <div role="status" aria-label="Checking the certificate" className="grid gap-4">
            <Skeleton className="h-28 rounded-2xl" />
            <Skeleton className="h-72 rounded-2xl" />
          </div>
        ) : query.isError ? (
          <Notice
            icon={<SearchXIcon className="size-7" aria-hidden="true" />}
            title="We could not check this certificate"
            tone="zinc"
          >
            {loadFailureHint(
              query.error,
              "The verification service did not answer. Check your connection and reload the page.",
            )}
          </Notice>
        ) : query.data ? (
          <>
            <CertificateResult certificate={query.data} />
            <CredentialCheckPanel code={query.data.code} issuerName={query.data.issuerName} />
            {signedIn ? (
              <BrowserCredentialCheck code={query.data.code} issuerName={query.data.issuerName} />
            ) : null}
            <CredentialFileCheck
              verifyUrl={query.data.verifyUrl}
              issuerName={query.data.issuerName}
            />
          </>
        ) : (
          <Notice
            icon={<SearchXIcon className="size-7" aria-hidden="true" />}
            title="No certificate found"
            tone="zinc"
          >
            No certificate matches the code <span className="font-mono break-all">{code}</span>.
            Check that the address or code was copied completely.
          </Notice>
        )}
        {code && (!query.isPending || cannotBeACode(code)) ? (
          <section
            aria-labelledby="verify-another"
            className="grid gap-4 rounded-2xl border border-zinc-200 bg-white p-6"
          >
            <h2 id="verify-another" className="text-base font-semibold text-zinc-950">
              Verify another certificate
            </h2>
            <VerifyCodeForm />
          </section>
        ) : null}
      </main>
    </div>
  );
}

function Notice({
  icon,
  title,
  tone,
  children,
}: {
  icon: ReactNode;
  title: string;
  tone: "zinc";
  children: ReactNode;
}) {
  return (
    <section
      aria-labelledby="verify-title"
      data-testid="verification-result"
      data-status="not-found"
      className={cn(
        "flex flex-col items-center rounded-2xl border bg-white px-6 py-12 text-center",
        tone === "zinc" && "border-zinc-200",
      )}
    >
      <span className="flex size-14 items-center justify-center rounded-full bg-zinc-100 text-zinc-600">
        {icon}
      </span>
      <h1 id="verify-title" className="mt-5 text-xl font-semibold text-zinc-950">
        {title}
      </h1>
      <p className="mt-2 max-w-md text-sm text-zinc-600">{children}</p>
    </section>
  );
}

/** What the portal's check of the credential says, by its result. */
const CREDENTIAL_RESULTS: Record<
  CredentialResult,
  { title: string; text: (issuer: string) => string }
> = {
  valid: {
    title: "Verifiable credential: valid",
    text: (issuer) =>
      `The certificate's Open Badges credential carries ${issuer}'s signature, and ${issuer}'s status list does not mark it revoked.`,
  },
  revoked: {
    title: "Verifiable credential: revoked",
    text: (issuer) =>
      `The credential's signature holds, but ${issuer}'s status list marks it revoked: it is no longer valid.`,
  },
  invalid: {
    title: "Verifiable credential: invalid",
    text: () =>
      "The credential's signature or its status could not be verified against the issuer's published keys.",
  },
};

/**
 * Beside the record check above: the certificate's Open Badges 3.0 credential as a verifier
 * sees it (its eddsa-rdfc-2022 proof against the issuer's DID document, then its bit in the
 * revocation list). The portal runs the check: the credential itself carries the learner's
 * licence number, which this public page does not show.
 */
function CredentialCheckPanel({ code, issuerName }: { code: string; issuerName: string }) {
  const check = useCredentialCheck(code);
  const dates = useDates();
  if (check.isPending) {
    return (
      <div role="status" aria-label="Checking the verifiable credential">
        <Skeleton className="h-24 rounded-2xl" />
      </div>
    );
  }
  if (check.isError) {
    return (
      <section
        aria-labelledby="credential-check-title"
        data-testid="credential-check"
        data-result="unknown"
        className="rounded-2xl border border-zinc-200 bg-white px-5 py-5 sm:px-8"
      >
        <h2 id="credential-check-title" className="text-base font-semibold text-zinc-950">
          Verifiable credential
        </h2>
        <p className="mt-1 text-sm text-zinc-600">
          {loadFailureHint(check.error, "The credential could not be checked just now.")}
        </p>
      </section>
    );
  }
  const { result, issuer, verificationMethod, cryptosuite, checkedAt } = check.data;
  const shown = { ...CREDENTIAL_RESULTS[result], ...CREDENTIAL_TONES[result] };
  return (
    <section
      aria-labelledby="credential-check-title"
      data-testid="credential-check"
      data-result={result}
      className={cn("grid gap-3 rounded-2xl border px-5 py-5 sm:px-8", shown.tone)}
    >
      <div className="flex items-start gap-3">
        {shown.icon}
        <div className="grid gap-1">
          <h2 id="credential-check-title" className="text-base font-semibold">
            {shown.title}
          </h2>
          <p className="text-sm">{shown.text(issuerName)}</p>
        </div>
      </div>
      <dl className="grid gap-x-6 gap-y-2 text-xs sm:grid-cols-2">
        <div className="grid gap-0.5 sm:col-span-2">
          <dt className="font-medium tracking-wide uppercase opacity-80">Issuer</dt>
          <dd className="font-mono break-all">{issuer}</dd>
        </div>
        {verificationMethod ? (
          <div className="grid gap-0.5 sm:col-span-2">
            <dt className="font-medium tracking-wide uppercase opacity-80">Signed with</dt>
            <dd className="font-mono break-all">
              {verificationMethod}
              {cryptosuite ? ` (${cryptosuite})` : ""}
            </dd>
          </div>
        ) : null}
        <div className="grid gap-0.5">
          <dt className="font-medium tracking-wide uppercase opacity-80">Checked</dt>
          <dd>by this portal, {dates.dateTime(checkedAt)}</dd>
        </div>
      </dl>
    </section>
  );
}

/** What the public page shows: the certificate's document, as its HTML and PDF print it. */
function CertificateResult({ certificate: c }: { certificate: PublicCertificate }) {
  const valid = c.status === "valid";
  const dateFormat = useDateFormat();
  const dates = useDates();
  const doc = certificateDocument(c, { dateFormat });
  // On the first page's fields already, or said in the header above.
  const shown = new Set(["Credit", "Completed on", "Profession", fieldOfStudyLabel(c)]);
  const details = doc.details?.filter((f) => !shown.has(f.label)) ?? null;
  return (
    <section
      aria-labelledby="verify-title"
      data-testid="verification-result"
      data-status={c.status}
      className="overflow-hidden rounded-2xl border border-zinc-200 bg-white shadow-sm shadow-zinc-950/5"
    >
      <div
        className={cn(
          "flex items-start gap-4 px-5 py-6 sm:px-8",
          valid ? "bg-emerald-50 text-emerald-950" : "bg-red-50 text-red-950",
        )}
      >
        <span
          className={cn(
            "flex size-12 shrink-0 items-center justify-center rounded-full text-white",
            valid ? "bg-emerald-600" : "bg-red-600",
          )}
        >
          {valid ? (
            <BadgeCheckIcon className="size-7" aria-hidden="true" />
          ) : (
            <ShieldXIcon className="size-7" aria-hidden="true" />
          )}
        </span>
        <div className="grid gap-1">
          <h1 id="verify-title" className="text-xl font-semibold sm:text-2xl">
            {valid ? "✓ Valid certificate" : "✗ Revoked certificate"}
          </h1>
          <p className="text-sm">
            {valid
              ? `This certificate was issued by ${c.issuerName} and has not been revoked.`
              : `${c.issuerName} revoked this certificate on ${doc.revoked?.on ?? ""}. It is no longer valid.`}
          </p>
          {!valid && c.revokedReason ? (
            <p className="mt-1 text-sm">
              <span className="font-semibold">Reason:</span> {c.revokedReason}
            </p>
          ) : null}
        </div>
      </div>
      <dl className="grid gap-x-8 gap-y-5 px-5 py-6 sm:grid-cols-2 sm:px-8">
        <Item label="Awarded to" wide>
          <span className="text-lg font-semibold text-zinc-950">{c.learnerName}</span>
        </Item>
        <Item label="Course" wide>
          <span className="text-base font-semibold text-zinc-950">{c.courseTitle}</span>
          {doc.meta ? (
            <span className="block text-sm text-zinc-600">{doc.meta.category}</span>
          ) : null}
        </Item>
        {doc.fields.map((field) => (
          <Item key={field.label} label={field.label}>
            {/* The second page's row says more where it has one: each field with its credits. */}
            {doc.details?.find((d) => d.label === field.label)?.value ?? field.value}
          </Item>
        ))}
        <Item label="Completed on">{doc.completedOn}</Item>
        {doc.meta ? <Item label="Duration">{doc.meta.length}</Item> : null}
        {doc.notes.length || doc.meta ? (
          <Item label={doc.meta ? "Credit" : "Accreditation"} wide>
            {doc.notes.length ? doc.notes.join(" · ") : "No credit recorded for this course"}
          </Item>
        ) : null}
        <Item label="Issued by">
          {doc.issuer.logoUrl ? (
            <img
              src={doc.issuer.logoUrl}
              alt=""
              className="mb-1.5 block max-h-10 max-w-40 object-contain"
            />
          ) : null}
          {c.issuerName}
        </Item>
        <Item label="Issued on">{dates.date(c.issuedAt)}</Item>
        <Item label="Certificate code" wide>
          <span className="font-mono text-sm break-all">{formatCertificateCode(c.code)}</span>
        </Item>
      </dl>
      {details ? (
        <CreditDetails doc={doc} details={details} signatureId={c.credit?.signatureId ?? null} />
      ) : null}
    </section>
  );
}

/** What an accredited course's certificate adds: its second page's rows and the official. */
function CreditDetails({
  doc,
  details,
  signatureId,
}: {
  doc: CertificateDocument;
  details: CertificateField[];
  signatureId: string | null;
}) {
  return (
    <section
      aria-labelledby="verify-credit-title"
      data-testid="verification-credit"
      className="border-t border-zinc-100 px-5 py-6 sm:px-8"
    >
      <h2 id="verify-credit-title" className="text-base font-semibold text-zinc-950">
        Continuing education credit
      </h2>
      <dl className="mt-4 grid gap-x-8 gap-y-5 sm:grid-cols-2">
        {details.map((field) => (
          <Item key={field.label} label={field.label} wide={field.value.length > 60}>
            <span className="block whitespace-pre-line">{field.value}</span>
          </Item>
        ))}
        {doc.signatory ? (
          <Item label="Responsible official" wide>
            {signatureId ? (
              <img
                src={signaturePath(signatureId)}
                alt={`Signature of ${doc.signatory.name}`}
                className="mb-2 block max-h-16 max-w-60 object-contain"
              />
            ) : null}
            <span className="block font-medium">{doc.signatory.name}</span>
            {doc.signatory.title ? (
              <span className="block text-sm text-zinc-600">{doc.signatory.title}</span>
            ) : null}
          </Item>
        ) : null}
      </dl>
    </section>
  );
}

function Item({ label, wide, children }: { label: string; wide?: boolean; children: ReactNode }) {
  return (
    <div className={cn("grid content-start gap-1", wide && "sm:col-span-2")}>
      <dt className="text-xs font-medium tracking-wide text-zinc-600 uppercase">{label}</dt>
      <dd className="text-[15px] text-zinc-900">{children}</dd>
    </div>
  );
}
