import { MESSAGES, SETUP_DIALOG_AUTO_CLOSE_MS, TOASTS } from "@contract";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { toast } from "../../../components/ui/use-toast";
import { isApiError } from "../../../lib/api-client";
import { useAppConfig, useConfigForAction } from "../../../lib/app-config";
import { checkEmailRegistration } from "../api/check-email";
import { checkPasswordSetup } from "../api/check-password-setup";
import { getInvitation } from "../api/get-invitation";
import { resendInvitation } from "../api/resend-invitation";

/**
 * idle → checking → verified | unregistered | already-set (SPEC section 4 steps 1-7). In
 * invite mode without the emailed token, a registered email ends in invite-sent instead of
 * verified: a fresh invitation link is mailed rather than showing the password fields.
 */
type Verification =
  | "idle"
  | "checking"
  | "verified"
  | "unregistered"
  | "already-set"
  | "invite-sent";

/**
 * Who sets up a first password: the email address and its verification, and an invitation
 * link's lookup, which fills in the address and the name the administrator entered.
 * `onDone` closes the dialog once an address turns out to have a password already.
 */
export function useEmailVerification({
  lockedEmail,
  suggestedEmail,
  linkToken,
  onDone,
}: {
  lockedEmail?: string;
  suggestedEmail?: string;
  linkToken?: string;
  onDone: () => void;
}) {
  const { passwordSetupMode } = useAppConfig();
  const configForAction = useConfigForAction();
  const [email, setEmail] = useState(lockedEmail ?? suggestedEmail ?? "");
  // An invitation link is looked up first: holding it proves the mailbox, so a live one
  // starts verified, with the name the administrator entered.
  const [inviteToken, setInviteToken] = useState(linkToken);
  const [verification, setVerification] = useState<Verification>(linkToken ? "checking" : "idle");
  const [staleLink, setStaleLink] = useState(false);
  const [name, setName] = useState("");
  const closeTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  /**
   * Counts the checks asked and the edits of the address: a check's answer counts only while
   * it is the last thing that happened to the address, so an address edited mid-check is
   * never shown as verified for the one it was checked as.
   */
  const checks = useRef(0);

  useEffect(() => () => clearTimeout(closeTimer.current), []);
  useEffect(() => {
    if (!linkToken) return;
    let current = true;
    getInvitation(linkToken).then(
      (invitation) => {
        if (!current) return;
        setEmail(invitation.email);
        setName(invitation.name);
        setVerification("verified");
      },
      (error: unknown) => {
        if (!current) return;
        // A used or expired link is no proof: the spec's Verify takes over (in invite mode
        // it mails a fresh link). Without an answer at all, the link may still be good.
        if (isApiError(error, "auth.invitation_invalid")) {
          setInviteToken(undefined);
          setStaleLink(true);
        }
        setVerification("idle");
      },
    );
    return () => {
      current = false;
    };
  }, [linkToken]);

  const checking = verification === "checking";
  const verified = verification === "verified";
  /** In invite mode, without an invitation's token the password is set from a mailed link. */
  const inviteOnlyIn = (mode: typeof passwordSetupMode) => mode === "invite" && !inviteToken;
  const inviteOnly = inviteOnlyIn(passwordSetupMode);

  async function verify() {
    const address = email.trim();
    if (!address) {
      toast({
        variant: "destructive",
        title: TOASTS.emailRequired,
        description: TOASTS.emailRequiredDescription,
      });
      return;
    }
    setVerification("checking");
    const check = ++checks.current;
    const superseded = () => check !== checks.current;
    try {
      // The mode as the portal runs it, not the page's default while its settings load.
      const mailsInvitation = inviteOnlyIn(
        (await configForAction())?.passwordSetupMode ?? passwordSetupMode,
      );
      const registered = await checkEmailRegistration(address);
      if (superseded()) return;
      if (!registered) {
        setVerification("unregistered");
        toast({
          variant: "destructive",
          title: TOASTS.emailNotFound,
          description: TOASTS.emailNotFoundDescription,
        });
        return;
      }
      const alreadySet = await checkPasswordSetup(address);
      if (superseded()) return;
      if (alreadySet) {
        setVerification("already-set");
        toast({
          title: MESSAGES.passwordAlreadySet,
          description: MESSAGES.passwordAlreadySetDescription,
        });
        closeTimer.current = setTimeout(onDone, SETUP_DIALOG_AUTO_CLOSE_MS);
        return;
      }
      if (mailsInvitation) {
        await sendFreshInvitation(address, superseded);
        return;
      }
      setVerification("verified");
      toast({ title: TOASTS.emailVerified, description: TOASTS.emailVerifiedDescription });
    } catch {
      if (superseded()) return;
      setVerification("idle");
      toast({
        variant: "destructive",
        title: TOASTS.emailCheckFailed,
        description: TOASTS.setupFailedFallback,
      });
    }
  }

  /** Invite mode: the password is set from the emailed link, so send a fresh one. */
  async function sendFreshInvitation(address: string, superseded: () => boolean) {
    try {
      await resendInvitation(address);
    } catch {
      if (superseded()) return;
      setVerification("idle");
      toast({
        variant: "destructive",
        title: INVITATION_FAILED,
        description: TOASTS.resetEmailFailedDescription,
      });
      return;
    }
    if (superseded()) return;
    setVerification("invite-sent");
    toast({ title: INVITATION_SENT, description: INVITATION_SENT_DESCRIPTION });
  }

  function onEmailChange(value: string) {
    setEmail(value);
    // SPEC section 4 step 7: editing the email resets the verified state, and a check under
    // way is of the address as it was: its answer is dropped.
    checks.current++;
    setVerification("idle");
  }

  function onEmailKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "Enter" && !verified) {
      event.preventDefault();
      if (!checking) void verify();
    }
  }

  return {
    email,
    name,
    setName,
    inviteToken,
    verification,
    staleLink,
    inviteOnly,
    checking,
    verified,
    verify,
    onEmailChange,
    onEmailKeyDown,
  };
}

/** Web-only texts of invite mode; the spec's own flow never shows them. */
const INVITATION_SENT = "Invitation sent";
const INVITATION_SENT_DESCRIPTION = "Check your inbox for a link to set your password.";
const INVITATION_FAILED = "Could not send the invitation";
