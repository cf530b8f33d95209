import { useParams } from "react-router";
import { useSession } from "../../features/auth/session-context";
import { VerifyCertificateView } from "../../features/certificates/components/verify-certificate-view";
import { useProductName } from "../../lib/app-config";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /verify (a form to type a code) and /verify/{code}: public, for signed-out visitors too. */
export function VerifyCertificateRoute() {
  const { code = "" } = useParams();
  const { user } = useSession();
  useDocumentTitle("Certificate verification");
  return (
    <VerifyCertificateView code={code} productName={useProductName()} signedIn={user !== null} />
  );
}
