import { type IdentityProvider, SIGN_ON_PROTOCOL_LABELS } from "@contract";
import { DownloadIcon, KeyRoundIcon, PencilIcon, PlusIcon, Trash2Icon } from "lucide-react";
import { useState } from "react";
import { SettingsCard } from "../../../components/settings-card";
import { Badge } from "../../../components/ui/badge";
import { Button } from "../../../components/ui/button";
import { useConfirm } from "../../../components/ui/confirm-dialog";
import { toast } from "../../../components/ui/use-toast";
import { getErrorMessage } from "../../../lib/api-client";
import { useDeleteIdentityProvider, useIdentityProviders } from "../api/identity-providers";
import { IdentityProviderDialog } from "./identity-provider-dialog";

/** Settings' "Single sign-on" card: the identity providers people sign in through. */
export function SingleSignOnCard() {
  const [editing, setEditing] = useState<IdentityProvider | "new" | null>(null);
  return (
    <SettingsCard
      icon={KeyRoundIcon}
      title="Single sign-on"
      description="Identity providers (OpenID Connect or SAML 2.0) that sign people in with their organisation's account. See docs/sso.md for Entra ID, Okta and Google Workspace."
      query={useIdentityProviders()}
      loadingLabel="Loading identity providers"
      loadFailure="The identity providers could not be loaded."
    >
      {({ providers }) => (
        <div className="grid gap-4">
          {providers.length === 0 ? (
            <p className="text-sm text-zinc-600">
              No identity provider yet: people sign in with a password.
            </p>
          ) : (
            <ul className="grid gap-3">
              {providers.map((provider) => (
                <ProviderRow
                  key={provider.id}
                  provider={provider}
                  onEdit={() => setEditing(provider)}
                />
              ))}
            </ul>
          )}
          <div>
            <Button variant="outline" onClick={() => setEditing("new")}>
              <PlusIcon aria-hidden="true" />
              Add identity provider
            </Button>
          </div>
          {editing ? (
            <IdentityProviderDialog
              key={editing === "new" ? "new" : editing.id}
              open
              onOpenChange={(open) => (open ? null : setEditing(null))}
              provider={editing === "new" ? undefined : editing}
            />
          ) : null}
        </div>
      )}
    </SettingsCard>
  );
}

function ProviderRow({ provider, onEdit }: { provider: IdentityProvider; onEdit: () => void }) {
  const remove = useDeleteIdentityProvider();
  const [confirm, confirmDialog] = useConfirm();

  async function onDelete() {
    const confirmed = await confirm({
      title: `Remove ${provider.name}?`,
      message:
        "People stop signing in through it at once; learners it created stay, with their records.",
      confirmLabel: "Remove provider",
    });
    if (!confirmed) return;
    remove.mutate(provider.id, {
      onSuccess: () => toast({ title: `${provider.name} removed` }),
      onError: (err) =>
        toast({
          variant: "destructive",
          title: "Provider not removed",
          description: getErrorMessage(err) ?? "Please try again.",
        }),
    });
  }

  return (
    <li className="grid gap-3 rounded-xl border border-zinc-200 p-4" aria-label={provider.name}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="grid min-w-0 gap-1">
          <p className="flex flex-wrap items-center gap-2 font-medium text-zinc-950">
            {provider.name}
            <Badge variant="secondary">{SIGN_ON_PROTOCOL_LABELS[provider.protocol]}</Badge>
            {provider.createsLearners ? <Badge variant="outline">Creates learners</Badge> : null}
          </p>
          <p className="text-[13px] break-words text-zinc-600">
            {provider.domains.length ? provider.domains.join(", ") : "No email domains"}
          </p>
        </div>
        <div className="flex gap-2">
          <Button variant="outline" size="sm" onClick={onEdit}>
            <PencilIcon aria-hidden="true" />
            Edit<span className="sr-only"> {provider.name}</span>
          </Button>
          <Button variant="outline" size="sm" onClick={() => void onDelete()}>
            <Trash2Icon aria-hidden="true" />
            Remove<span className="sr-only"> {provider.name}</span>
          </Button>
        </div>
      </div>
      <dl className="grid gap-1 text-[13px] text-zinc-700">
        {provider.protocol === "oidc" ? (
          <div className="grid gap-0.5">
            <dt className="font-medium text-zinc-900">Redirect URI</dt>
            <dd className="font-mono text-xs break-all">{provider.redirectUri}</dd>
          </div>
        ) : (
          <>
            <div className="grid gap-0.5">
              <dt className="font-medium text-zinc-900">ACS URL</dt>
              <dd className="font-mono text-xs break-all">{provider.acsUrl}</dd>
            </div>
            <div className="grid gap-0.5">
              <dt className="font-medium text-zinc-900">Entity ID</dt>
              <dd className="font-mono text-xs break-all">{provider.entityId}</dd>
            </div>
          </>
        )}
      </dl>
      {provider.protocol === "saml" ? (
        <a
          href={provider.metadataLink}
          className="inline-flex items-center gap-1.5 justify-self-start text-[13px] text-indigo-700 underline-offset-4 hover:underline"
        >
          <DownloadIcon className="size-3.5" aria-hidden="true" />
          Download service-provider metadata
        </a>
      ) : null}
      {confirmDialog}
    </li>
  );
}
