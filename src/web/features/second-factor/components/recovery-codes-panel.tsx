import { SECOND_FACTOR_TEXTS } from "@contract";
import { CopyIcon, DownloadIcon } from "lucide-react";
import { Button } from "../../../components/ui/button";
import { toast } from "../../../components/ui/use-toast";

/** The recovery codes, shown once: to copy, download or write down before going on. */
export function RecoveryCodesPanel(props: { codes: string[]; doneLabel: string; onDone(): void }) {
  const text = `${props.codes.join("\n")}\n`;
  return (
    <div className="grid gap-4">
      <div className="grid gap-1">
        <h3 className="text-sm font-semibold text-zinc-900">{SECOND_FACTOR_TEXTS.codesTitle}</h3>
        <p className="text-sm text-zinc-600">{SECOND_FACTOR_TEXTS.codesDescription}</p>
      </div>
      <ul
        aria-label="Recovery codes"
        data-testid="recovery-codes"
        className="grid grid-cols-2 gap-x-6 gap-y-1.5 rounded-lg bg-zinc-50 p-4 font-mono text-sm text-zinc-900 ring-1 ring-zinc-200"
      >
        {props.codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button
          type="button"
          variant="outline"
          onClick={() =>
            void navigator.clipboard
              ?.writeText(text)
              .then(() => toast({ title: "Recovery codes copied" }))
          }
        >
          <CopyIcon aria-hidden="true" />
          Copy
        </Button>
        <Button asChild variant="outline">
          <a
            href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}
            download="recovery-codes.txt"
          >
            <DownloadIcon aria-hidden="true" />
            Download
          </a>
        </Button>
        <Button type="button" className="sm:ml-auto" onClick={props.onDone}>
          {props.doneLabel}
        </Button>
      </div>
    </div>
  );
}
