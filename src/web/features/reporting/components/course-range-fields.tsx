import type { RegulatorOverview } from "@contract";
import { useState } from "react";
import type { z } from "zod";
import { Field } from "../../../components/ui/field";
import { NativeSelect } from "../../../components/ui/native-select";
import { DateField } from "./date-field";

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
type DayErrors = { from?: string | undefined; to?: string | undefined };

/** The form's layout: course, the two days, then its actions level with the inputs. */
export const COURSE_RANGE_FORM_CLASS =
  "grid gap-4 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)] lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,1fr)_auto] lg:items-start";

/**
 * A course's range of completion days, the last year by default, as every regulator's file or
 * submission asks for it; a refused day's message shows under its field.
 */
export function useCourseRange() {
  const today = new Date();
  const [from, setFrom] = useState(dayOf(new Date(today.getTime() - 365 * 86_400_000)));
  const [to, setTo] = useState(dayOf(today));
  const [dayErrors, setDayErrors] = useState<DayErrors>({});

  /** The body if the contract's rules take it; otherwise each refused day's message shows. */
  function checked<T>(schema: z.ZodType<T>, body: unknown): T | null {
    const parsed = schema.safeParse(body);
    if (parsed.success) {
      setDayErrors({});
      return parsed.data;
    }
    const errors: DayErrors = {};
    for (const issue of parsed.error.issues) {
      const day = issue.path[0];
      if ((day === "from" || day === "to") && !errors[day]) errors[day] = issue.message;
    }
    setDayErrors(errors);
    return null;
  }

  return { from, to, setFrom, setTo, dayErrors, setDayErrors, checked };
}

export type CourseRange = ReturnType<typeof useCourseRange>;

/** The course picker and the two days of a range. */
export function CourseRangeFields({
  base,
  overview,
  course,
  onCourse,
  range,
}: {
  base: string;
  overview: RegulatorOverview;
  course: string;
  onCourse: (id: string) => void;
  range: CourseRange;
}) {
  return (
    <>
      <Field id={`${base}-course`} label="Course">
        <NativeSelect
          id={`${base}-course`}
          value={course}
          onChange={(e) => onCourse(e.target.value)}
        >
          {overview.courses.map((c) => (
            <option key={c.id} value={c.id}>
              {c.title}
            </option>
          ))}
        </NativeSelect>
      </Field>
      <DateField
        id={`${base}-from`}
        label="Completed from"
        value={range.from}
        onChange={range.setFrom}
        error={range.dayErrors.from}
      />
      <DateField
        id={`${base}-to`}
        label="Completed to"
        value={range.to}
        onChange={range.setTo}
        error={range.dayErrors.to}
      />
    </>
  );
}
