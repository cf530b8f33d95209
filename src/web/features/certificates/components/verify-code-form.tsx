import { CERTIFICATE_CODE_INPUT_MAX, CERTIFICATE_CODE_INVALID } from "@contract";
import { SearchIcon } from "lucide-react";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "../../../components/ui/button";
import { Field, fieldAria } from "../../../components/ui/field";
import { Input } from "../../../components/ui/input";

/**
 * Looks up a certificate by the code printed on it: a verifier who has the paper, not the
 * link, types it here. Spaces and dashes are dropped and letters upper-cased; the server
 * reads what remains the way it reads any code.
 */
export function VerifyCodeForm({ label = "Certificate code" }: { label?: string }) {
  const navigate = useNavigate();
  const [typed, setTyped] = useState("");
  const [error, setError] = useState<string | undefined>();

  function submit(event: FormEvent) {
    event.preventDefault();
    const code = typed.replace(/[\s-]/g, "").toUpperCase();
    if (!code) {
      setError("Enter the code printed on the certificate.");
      return;
    }
    if (code.length > CERTIFICATE_CODE_INPUT_MAX) {
      setError(CERTIFICATE_CODE_INVALID);
      return;
    }
    setError(undefined);
    void navigate(`/verify/${encodeURIComponent(code)}`);
  }

  return (
    <form onSubmit={submit} noValidate className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <Field
        id="certificate-code"
        label={label}
        error={error}
        hint="The 32-character code under the QR code, with or without its dashes."
        className="flex-1"
      >
        <Input
          id="certificate-code"
          value={typed}
          onChange={(event) => setTyped(event.target.value)}
          autoComplete="off"
          spellCheck={false}
          className="font-mono"
          {...fieldAria("certificate-code", error, { hint: true })}
        />
      </Field>
      <Button type="submit" className="sm:mb-6">
        <SearchIcon aria-hidden="true" />
        Verify
      </Button>
    </form>
  );
}
