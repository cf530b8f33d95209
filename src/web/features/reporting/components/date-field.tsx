import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";

/** A labelled calendar day (YYYY-MM-DD), as the report files' ranges are given. */
export function DateField({
  id,
  label,
  value,
  onChange,
  error,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (day: string) => void;
  /** What is wrong with the day, shown under it. */
  error?: string;
}) {
  return (
    <Field id={id} label={label} error={error}>
      <Input
        id={id}
        type="date"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        {...fieldAria(id, error)}
      />
    </Field>
  );
}
