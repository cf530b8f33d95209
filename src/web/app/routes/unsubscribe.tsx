import { useSearchParams } from "react-router";
import { UnsubscribeView } from "../../features/reminders/components/unsubscribe-view";
import { useProductName } from "../../lib/app-config";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /unsubscribe?token=…: public, opened from a reminder email. */
export function UnsubscribeRoute() {
  const [params] = useSearchParams();
  useDocumentTitle("Unsubscribe");
  return <UnsubscribeView token={params.get("token") ?? ""} productName={useProductName()} />;
}
