import { Field } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";

/** A labelled calendar day (YYYY-MM-DD), as the report files' ranges are given. */
export function DateField({
  id,
  label,
  value,
  onChange,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (day: string) => void;
}) {
  return (
    <Field id={id} label={label}>
      <Input id={id} type="date" value={value} onChange={(e) => onChange(e.target.value)} />
    </Field>
  );
}
