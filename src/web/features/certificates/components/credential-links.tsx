import { credentialPath, linkedInAddUrl } from "@contract";
import { ExternalLinkIcon, FileBracesIcon } from "lucide-react";
import { Button, type ButtonProps } from "../../../components/ui/button";

type LinkProps = Omit<ButtonProps, "asChild" | "children">;

/**
 * The certificate's Open Badges credential (signed JSON), as a download link that looks like
 * a button: the file a digital wallet or any verifier takes.
 */
export function DownloadCredentialLink({
  code,
  courseTitle,
  ...props
}: LinkProps & { code: string; courseTitle: string }) {
  return (
    <Button asChild {...props}>
      <a href={credentialPath(code)} download data-testid="download-credential">
        <FileBracesIcon aria-hidden="true" />
        Download credential<span className="sr-only"> for {courseTitle}</span>
      </a>
    </Button>
  );
}

/**
 * LinkedIn's "Add licence or certification" form, filled in with the course, the
 * organisation, the month of issue, the verification address and the certificate's code. It
 * opens on LinkedIn, where the learner confirms it.
 */
export function AddToLinkedInLink({
  certificate,
  ...props
}: LinkProps & { certificate: Parameters<typeof linkedInAddUrl>[0] }) {
  return (
    <Button asChild {...props}>
      <a
        href={linkedInAddUrl(certificate)}
        target="_blank"
        rel="noopener noreferrer"
        data-testid="add-to-linkedin"
      >
        Add to LinkedIn
        <span className="sr-only">
          {" "}
          the certificate for {certificate.courseTitle} (opens LinkedIn in a new tab)
        </span>
        <ExternalLinkIcon aria-hidden="true" />
      </a>
    </Button>
  );
}
