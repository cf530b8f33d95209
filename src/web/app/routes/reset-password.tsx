import { ArrowLeftIcon } from "lucide-react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Logo } from "../../components/logo";
import { toast } from "../../components/ui/use-toast";
import { ResetPasswordForm } from "../../features/auth/components/reset-password-form";
import { homePathFor } from "../../features/auth/session-context";
import { useProductName } from "../../lib/app-config";
import { useDocumentTitle } from "../../lib/use-document-title";

/** /reset-password?token=…: the page the emailed reset link opens. Public, no guard. */
export function ResetPasswordRoute() {
  const productName = useProductName();
  const navigate = useNavigate();
  const [searchParams] = useSearchParams();
  const token = searchParams.get("token")?.trim() || null;
  useDocumentTitle("Reset password");

  return (
    <div className="flex min-h-dvh flex-col bg-zinc-50 px-5 py-8 sm:px-8">
      <header className="mx-auto flex w-full max-w-md items-center justify-center sm:justify-start">
        <Link
          to="/"
          className="rounded-md focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <Logo name={productName} />
        </Link>
      </header>
      <main className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
        <div className="rounded-2xl border border-zinc-200 bg-white p-6 shadow-xl shadow-zinc-950/5 sm:p-8">
          <ResetPasswordForm
            token={token}
            onReset={(user) => {
              toast({
                title: "Password updated",
                description: `You're signed in with your new password. Welcome back, ${user.name}!`,
              });
              navigate(homePathFor(user), { replace: true });
            }}
          />
        </div>
        <Link
          to="/"
          className="mx-auto mt-6 inline-flex items-center gap-1.5 rounded-md px-2 py-1 text-sm font-medium text-zinc-600 hover:text-zinc-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
        >
          <ArrowLeftIcon className="size-4" aria-hidden="true" />
          Back to sign in
        </Link>
      </main>
    </div>
  );
}
