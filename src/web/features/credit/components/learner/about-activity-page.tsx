import { type Activity, creditAmountText, hoursText } from "@contract";
import {
  ArrowRightIcon,
  CircleCheckIcon,
  FileTextIcon,
  InfoIcon,
  ShieldCheckIcon,
  TargetIcon,
  UsersIcon,
} from "lucide-react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Link } from "react-router";
import { Button } from "../../../../components/ui/button";
import { EmptyState } from "../../../../components/ui/empty-state";
import { Spinner } from "../../../../components/ui/spinner";
import { getErrorMessage } from "../../../../lib/api-client";
import { useDates } from "../../../../lib/dates";
import { useDocumentTitle } from "../../../../lib/use-document-title";
import { useAcknowledgeActivity } from "../../api/acknowledge-activity";
import { useActivity } from "../../api/get-activity";
import { coursePaths, creditOpen, hasActivityContent } from "../../credit-steps";
import {
  CreditCourseNotFound,
  CreditPage,
  CreditPageError,
  CreditPageSkeleton,
  courseOutOfReach,
  ExpiryBanner,
} from "./credit-page";
import { LicenceNotice } from "./licence-notice";

/**
 * "About this activity": what accreditors ask a learner to see before starting (objectives,
 * faculty and their disclosures, the disclosure and accreditation statements, the credit,
 * the dates), and the acknowledgement a course may require before its first module.
 */
export function AboutActivityPage({
  courseId,
  courseTitle,
}: {
  courseId: string;
  courseTitle?: string;
}) {
  useDocumentTitle(courseTitle ? `About this activity · ${courseTitle}` : "About this activity");
  const query = useActivity(courseId);
  if (courseOutOfReach(query.error)) return <CreditCourseNotFound />;

  return (
    <CreditPage courseId={courseId} courseTitle={courseTitle} title="About this activity">
      {query.isPending ? (
        <CreditPageSkeleton />
      ) : query.isError ? (
        <CreditPageError
          what="this activity"
          error={query.error}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <ActivityDetails activity={query.data} />
      )}
    </CreditPage>
  );
}

function ActivityDetails({ activity: a }: { activity: Activity }) {
  const standing = a.standing;
  return (
    <div className="grid gap-6">
      <ExpiryBanner
        courseExpired={a.courseExpired}
        enrollmentExpired={standing?.enrollmentExpired ?? false}
      />
      {a.acknowledgementRequired && standing && !standing.acknowledgedAt && creditOpen(a) ? (
        <p className="flex items-start gap-2.5 rounded-xl border border-indigo-200 bg-indigo-50 p-4 text-sm text-indigo-950">
          <InfoIcon className="mt-0.5 size-4 shrink-0 text-indigo-700" aria-hidden="true" />
          <span>
            Read this page before you start. At the end, confirm that you have read it to unlock the
            first module.
          </span>
        </p>
      ) : null}

      <Facts activity={a} />
      <LicenceNotice activity={a} />

      {hasActivityContent(a) ? (
        <>
          {a.objectives.length ? (
            <Section icon={<TargetIcon />} title="Learning objectives">
              <p className="text-sm text-zinc-600">
                When you have completed this activity, you will be able to:
              </p>
              <ol className="grid list-decimal gap-2 pl-5 text-[15px] leading-relaxed text-zinc-800 marker:font-semibold marker:text-indigo-700">
                {a.objectives.map((objective, i) => (
                  // Objectives may repeat; their place in the list is what tells them apart.
                  // biome-ignore lint/suspicious/noArrayIndexKey: see above.
                  <li key={i} className="pl-1">
                    {objective}
                  </li>
                ))}
              </ol>
            </Section>
          ) : null}

          {a.faculty.length ? (
            <Section icon={<UsersIcon />} title="Faculty">
              <ul className="grid gap-3">
                {a.faculty.map((person, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: two people may share a name.
                  <li key={i} className="grid gap-1 rounded-xl border border-zinc-200 p-4">
                    <p className="text-[15px] font-semibold text-zinc-950">{person.name}</p>
                    {person.role ? <p className="text-sm text-zinc-600">{person.role}</p> : null}
                    <p className="mt-1 text-sm leading-relaxed whitespace-pre-line text-zinc-800">
                      <span className="font-medium text-zinc-950">Disclosure: </span>
                      {person.disclosure || "None recorded."}
                    </p>
                  </li>
                ))}
              </ul>
            </Section>
          ) : null}

          {a.disclosureStatement ? (
            <Section icon={<FileTextIcon />} title="Disclosure statement">
              <Statement>{a.disclosureStatement}</Statement>
            </Section>
          ) : null}

          {a.creditTypes.some((t) => t.accreditationStatement || t.designationStatement) ? (
            <Section icon={<ShieldCheckIcon />} title="Accreditation and credit">
              {a.creditTypes.map((t) =>
                t.accreditationStatement || t.designationStatement ? (
                  <div key={t.id} className="grid gap-2" data-testid="credit-type-statements">
                    <h3 className="text-sm font-semibold text-zinc-950">
                      {creditAmountText(t.amount, t.name)}
                      {t.accreditingBody ? ` · ${t.accreditingBody}` : ""}
                    </h3>
                    {t.accreditationStatement ? (
                      <Statement>{t.accreditationStatement}</Statement>
                    ) : null}
                    {t.designationStatement ? (
                      <Statement>{t.designationStatement}</Statement>
                    ) : null}
                  </div>
                ) : null,
              )}
            </Section>
          ) : null}
        </>
      ) : (
        <EmptyState
          titleAs="h2"
          icon={<FileTextIcon />}
          title="No activity information yet"
          description="The provider has not published objectives, faculty or statements for this course."
        />
      )}

      <Acknowledgement activity={a} />
    </div>
  );
}

function Facts({ activity: a }: { activity: Activity }) {
  const dates = useDates();
  const expiresAt = a.standing?.enrollmentExpiresAt ?? null;
  const facts: [string, ReactNode][] = [
    ["Estimated time", hoursText(a.estimatedHours)],
    [
      "Credit designated",
      a.creditTypes.length ? (
        <ul key="credit" className="grid gap-0.5" data-testid="credit-designated">
          {a.creditTypes.map((t) => (
            <li key={t.id}>Up to {creditAmountText(t.amount, t.name)}</li>
          ))}
        </ul>
      ) : (
        "—"
      ),
    ],
    ["Sponsor", a.credit.sponsorName || "—"],
    ["Delivery method", a.credit.deliveryMethod || "—"],
    ["Release date", dates.day(a.releaseDate)],
    ["Review date", dates.day(a.reviewDate)],
    ["Expiration date", dates.day(a.expirationDate)],
  ];
  return (
    <section
      aria-labelledby="activity-facts-title"
      className="rounded-2xl border border-zinc-200 bg-white shadow-xs shadow-zinc-950/5"
    >
      <h2
        id="activity-facts-title"
        className="border-b border-zinc-100 px-5 py-4 text-base font-semibold text-zinc-950 sm:px-6"
      >
        At a glance
      </h2>
      <dl className="grid gap-x-8 gap-y-4 px-5 py-5 sm:grid-cols-2 sm:px-6">
        {facts.map(([label, value]) => (
          <div key={label} className="grid gap-0.5">
            <dt className="text-xs font-medium tracking-wide text-zinc-600 uppercase">{label}</dt>
            <dd className="text-[15px] text-zinc-900">{value}</dd>
          </div>
        ))}
      </dl>
      {expiresAt ? (
        <p
          data-testid="enrollment-validity"
          className="border-t border-zinc-100 px-5 py-3.5 text-sm text-zinc-700 sm:px-6"
        >
          {a.standing?.enrollmentExpired
            ? `Your enrollment ended on ${dates.date(expiresAt)}.`
            : `Your enrollment is valid until ${dates.date(expiresAt)}.`}
        </p>
      ) : null}
    </section>
  );
}

function Section({
  icon,
  title,
  children,
}: {
  icon: ReactNode;
  title: string;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <section
      aria-labelledby={id}
      className="grid gap-4 rounded-2xl border border-zinc-200 bg-white p-5 shadow-xs shadow-zinc-950/5 sm:p-6"
    >
      <h2 id={id} className="flex items-center gap-2.5 text-base font-semibold text-zinc-950">
        <span
          aria-hidden="true"
          className="flex size-8 items-center justify-center rounded-lg bg-indigo-50 text-indigo-700 ring-1 ring-indigo-100 [&_svg]:size-4"
        >
          {icon}
        </span>
        {title}
      </h2>
      {children}
    </section>
  );
}

function Statement({ children }: { children: string }) {
  return (
    <p className="text-[15px] leading-relaxed break-words whitespace-pre-line text-zinc-800">
      {children}
    </p>
  );
}

/** The acknowledgement a course may require, and the way into the course once it is given. */
function Acknowledgement({ activity: a }: { activity: Activity }) {
  const dates = useDates();
  const acknowledge = useAcknowledgeActivity();
  const justAcknowledged = acknowledge.isSuccess;
  const startRef = useRef<HTMLAnchorElement>(null);
  const acknowledgedAt = a.standing?.acknowledgedAt ?? null;

  // The button goes away once pressed: the way into the course takes the focus.
  useEffect(() => {
    if (justAcknowledged) startRef.current?.focus();
  }, [justAcknowledged]);

  const courseLink = (label: string) => (
    <Button asChild size="lg" className="w-full sm:w-auto">
      <Link ref={startRef} to={coursePaths.player(a.courseId)}>
        {label}
        <ArrowRightIcon aria-hidden="true" />
      </Link>
    </Button>
  );

  if (!a.acknowledgementRequired || !a.standing) {
    return <div>{courseLink("Go to the course")}</div>;
  }
  if (acknowledgedAt) {
    return (
      <section
        aria-labelledby="acknowledged-title"
        data-testid="acknowledged"
        className="flex flex-col gap-4 rounded-2xl border border-emerald-200 bg-emerald-50/70 p-5 sm:flex-row sm:items-center sm:justify-between sm:p-6"
      >
        <p
          id="acknowledged-title"
          className="flex items-center gap-2.5 text-[15px] text-emerald-950"
        >
          <CircleCheckIcon className="size-5 shrink-0 text-emerald-600" aria-hidden="true" />
          Acknowledged on {dates.date(acknowledgedAt)}
        </p>
        {courseLink(justAcknowledged ? "Start the course" : "Go to the course")}
      </section>
    );
  }

  const open = creditOpen(a);
  return (
    <section
      aria-labelledby="acknowledge-title"
      id="acknowledge"
      className="grid gap-4 rounded-2xl border border-indigo-200 bg-gradient-to-br from-indigo-50 via-white to-violet-50 p-5 sm:p-6"
    >
      <div className="grid gap-1">
        <h2 id="acknowledge-title" className="text-base font-semibold text-zinc-950">
          Before you start
        </h2>
        <p className="text-sm leading-relaxed text-zinc-700">
          Confirm that you have read the information on this page. The first module unlocks once you
          do.
        </p>
      </div>
      <div>
        <Button
          size="lg"
          className="w-full sm:w-auto"
          disabled={!open || acknowledge.isPending}
          onClick={() => acknowledge.mutate(a.courseId)}
        >
          {acknowledge.isPending ? <Spinner /> : <CircleCheckIcon aria-hidden="true" />}I have read
          this information
        </Button>
      </div>
      {acknowledge.isError ? (
        <p role="alert" className="text-sm font-medium text-red-700">
          {getErrorMessage(acknowledge.error) ??
            "Your acknowledgement could not be saved. Please try again."}
        </p>
      ) : null}
    </section>
  );
}
