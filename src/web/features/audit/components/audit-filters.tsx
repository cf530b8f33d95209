import { AUDIT_EVENT_GROUPS, AUDIT_EVENT_TYPES, type AuditEventType, type Course } from "@contract";
import { DownloadIcon, XIcon } from "lucide-react";
import { useEffect, useState } from "react";
import { Button } from "../../../components/ui/button";
import { Field } from "../../../components/ui/field";
import { Input, inputClassName } from "../../../components/ui/input";
import { auditExportUrl, type AuditFilters as Filters } from "../api/get-audit-events";

const TYPING_DEBOUNCE_MS = 400;

/** An event type from a link or a select, if it is one. */
export const auditEventTypeOf = (value: string | null): AuditEventType | undefined =>
  AUDIT_EVENT_TYPES.find((t) => t === value);

/** Whether the filters name a range that ends before it starts (nothing to ask the server). */
export const invalidAuditRange = (filters: Filters) =>
  Boolean(filters.from && filters.to && filters.from > filters.to);

/** A text filter applied once typing pauses, so the list is not asked for every letter. */
function useTypedFilter(value: string | undefined, apply: (value: string) => void) {
  const [text, setText] = useState(value ?? "");
  useEffect(() => setText(value ?? ""), [value]);
  useEffect(() => {
    if (text.trim() === (value ?? "")) return;
    const timer = setTimeout(() => apply(text.trim()), TYPING_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text, value, apply]);
  return [text, setText] as const;
}

/**
 * The audit trail's filters (who, what, course, learner, dates) and the CSV export of the
 * same events. Choices apply at once; typed emails once typing pauses.
 */
export function AuditFilters({
  filters,
  onChange,
  courses,
}: {
  filters: Filters;
  onChange: (filters: Filters) => void;
  courses: Course[] | undefined;
}) {
  const set = (patch: Partial<Filters>) => onChange({ ...filters, ...patch });
  const [actor, setActor] = useTypedFilter(filters.actor, (actor) => set({ actor }));
  const [learner, setLearner] = useTypedFilter(filters.learner, (learner) => set({ learner }));
  const invalidRange = invalidAuditRange(filters);
  const filtered = Object.values(filters).some(Boolean);

  return (
    <div className="grid gap-5">
      {/* On phones the dates share a row; every other filter takes the whole width. */}
      <div className="grid grid-cols-2 gap-4 lg:grid-cols-3">
        <Field
          className="col-span-2 sm:col-span-1"
          id="audit-who"
          label="Who"
          hint="The email of the person who acted"
        >
          <Input
            id="audit-who"
            type="search"
            inputMode="email"
            autoComplete="off"
            placeholder="admin@example.com"
            value={actor}
            onChange={(e) => setActor(e.target.value)}
            aria-describedby="audit-who-hint"
          />
        </Field>
        <Field className="col-span-2 sm:col-span-1" id="audit-what" label="What">
          <select
            id="audit-what"
            className={inputClassName}
            value={filters.type ?? ""}
            onChange={(e) => set({ type: auditEventTypeOf(e.target.value) })}
          >
            <option value="">All events</option>
            {AUDIT_EVENT_GROUPS.map((group) => (
              <optgroup key={group.label} label={group.label}>
                {Object.entries(group.events).map(([type, label]) => (
                  <option key={type} value={type}>
                    {label}
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </Field>
        <Field className="col-span-2 sm:col-span-1" id="audit-course" label="Course">
          <select
            id="audit-course"
            className={inputClassName}
            value={filters.courseId ?? ""}
            onChange={(e) => set({ courseId: e.target.value || undefined })}
          >
            <option value="">All courses</option>
            {courses?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.title}
              </option>
            ))}
          </select>
        </Field>
        <Field
          className="col-span-2 sm:col-span-1"
          id="audit-learner"
          label="Learner"
          hint="The learner's email"
        >
          <Input
            id="audit-learner"
            type="search"
            inputMode="email"
            autoComplete="off"
            placeholder="learner@example.com"
            value={learner}
            onChange={(e) => setLearner(e.target.value)}
            aria-describedby="audit-learner-hint"
          />
        </Field>
        <Field id="audit-from" label="From">
          <Input
            id="audit-from"
            type="date"
            value={filters.from ?? ""}
            onChange={(e) => set({ from: e.target.value || undefined })}
          />
        </Field>
        <Field
          id="audit-to"
          label="To"
          error={invalidRange ? "The end date is before the start date." : undefined}
        >
          <Input
            id="audit-to"
            type="date"
            value={filters.to ?? ""}
            onChange={(e) => set({ to: e.target.value || undefined })}
            aria-invalid={invalidRange || undefined}
            aria-describedby={invalidRange ? "audit-to-error" : undefined}
          />
        </Field>
      </div>
      <div className="flex flex-wrap gap-3">
        {invalidRange ? (
          <Button disabled>
            <DownloadIcon aria-hidden="true" />
            Export CSV
          </Button>
        ) : (
          <Button asChild>
            <a href={auditExportUrl(filters)} download data-testid="audit-export">
              <DownloadIcon aria-hidden="true" />
              Export CSV
            </a>
          </Button>
        )}
        {filtered ? (
          <Button variant="outline" onClick={() => onChange({})}>
            <XIcon aria-hidden="true" />
            Clear filters
          </Button>
        ) : null}
      </div>
    </div>
  );
}
