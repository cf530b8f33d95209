import { type DateFormat, formatDocumentDate } from "../../contract";
import type { MailMessage } from "./mailer";

/** Escapes text for HTML bodies: names and titles come from users. */
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * Who a mail comes from: the organisation running the portal, or the product name until an
 * administrator sets one (organisation.service.ts).
 */
export interface MailIssuer {
  /** Named in the mail's heading and text. */
  name: string;
  /** The sender's display name; unset keeps MAIL_FROM's own. */
  fromName?: string;
  /** The signature under the message: the organisation's name, address and contact email. */
  signature: string[];
  /** How its mails print a date: the format chosen in the organisation's settings. */
  dateFormat: DateFormat;
}

/** The issuer's signature under a mail's text, and as HTML under its button. */
const signatureText = (issuer: MailIssuer) =>
  issuer.signature.length ? `\n--\n${issuer.signature.join("\n")}\n` : "";
const signatureHtml = (issuer: MailIssuer) =>
  issuer.signature.length
    ? `\n<tr><td style="font-size:12px;line-height:1.5;color:#52525b;padding-top:16px">${issuer.signature.map(esc).join("<br>")}</td></tr>`
    : "";

/** What every mail carries from its issuer: the sender's name. */
const fromOf = (issuer: MailIssuer) => (issuer.fromName ? { fromName: issuer.fromName } : {});

/** A simple, table-based layout that renders the same in common mail clients. */
function layout(
  issuer: MailIssuer,
  heading: string,
  body: string,
  action: { label: string; link: string },
  /** A line under the message (a reminder's unsubscribe link), already HTML. */
  footer = "",
) {
  return `<!doctype html>
<html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(heading)}</title></head>
<body style="margin:0;padding:0;background:#f4f4f5;font-family:-apple-system,Segoe UI,Roboto,Helvetica,Arial,sans-serif;color:#18181b">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="background:#f4f4f5;padding:32px 12px">
<tr><td align="center">
<table role="presentation" width="100%" cellpadding="0" cellspacing="0" style="max-width:520px;background:#ffffff;border-radius:12px;padding:32px">
<tr><td style="font-size:20px;font-weight:700;color:#4f46e5;padding-bottom:16px">${esc(issuer.name)}</td></tr>
<tr><td style="font-size:18px;font-weight:600;padding-bottom:12px">${esc(heading)}</td></tr>
<tr><td style="font-size:15px;line-height:1.6;padding-bottom:24px">${body}</td></tr>
<tr><td style="padding-bottom:24px"><a href="${esc(action.link)}" style="display:inline-block;background:#4f46e5;color:#ffffff;text-decoration:none;font-weight:600;padding:12px 20px;border-radius:8px">${esc(action.label)}</a></td></tr>
<tr><td style="font-size:12px;line-height:1.5;color:#71717a">If the button does not work, copy this address into your browser:<br><span style="word-break:break-all">${esc(action.link)}</span></td></tr>${signatureHtml(issuer)}${footer ? `\n<tr><td style="font-size:12px;line-height:1.5;color:#71717a;padding-top:16px;border-top:1px solid #e4e4e7">${footer}</td></tr>` : ""}
</table></td></tr></table></body></html>`;
}

/** The courses a mail names, as lines of its text and as an HTML list. */
const courseLines = (titles: string[]) => titles.map((t) => `  - ${t}`).join("\n");
const courseItems = (titles: string[]) =>
  `<ul style="margin:8px 0 0;padding-left:20px">${titles.map((t) => `<li><strong>${esc(t)}</strong></li>`).join("")}</ul>`;

export function invitationMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  link: string;
  expiresInDays: number;
  /** The courses the administrator enrolled the learner in with the account, if any. */
  courseTitles?: string[];
}): MailMessage {
  const heading = `You're invited to ${input.issuer.name}`;
  const titles = input.courseTitles ?? [];
  const enrolled = titles.length
    ? `You are enrolled in ${titles.length === 1 ? "this course" : "these courses"}:`
    : "";
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: `Your ${input.issuer.name} account is ready`,
    link: input.link,
    text: `Hello ${input.name},\n\nAn administrator registered you on ${input.issuer.name}.${titles.length ? ` ${enrolled}\n\n${courseLines(titles)}\n\n` : " "}Set your password to start learning:\n\n${input.link}\n\nThis link works once and expires in ${input.expiresInDays} days.\n${signatureText(input.issuer)}`,
    html: layout(
      input.issuer,
      heading,
      `Hello ${esc(input.name)},<br><br>An administrator registered you on ${esc(input.issuer.name)}.${titles.length ? ` ${enrolled}${courseItems(titles)}<br>` : " "}Set your password to start learning. This link works once and expires in ${input.expiresInDays} days.`,
      { label: "Set your password", link: input.link },
    ),
  };
}

/**
 * Tells a learner an administrator enrolled them, naming every course enrolled together;
 * the link opens the course, or the dashboard when there are several.
 */
export function enrollmentMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  courseTitles: string[];
  link: string;
  /** The learner has not set a password yet: the invitation's link comes first. */
  awaitingPassword: boolean;
}): MailMessage {
  const titles = input.courseTitles;
  const one = titles.length === 1;
  const first = input.awaitingPassword
    ? " First set your password with the link in your invitation email."
    : "";
  const label = one ? "Open the course" : "Go to my courses";
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: one
      ? `You are enrolled in ${titles[0]}`
      : `You are enrolled in ${titles.length} courses`,
    link: input.link,
    text: `Hello ${input.name},\n\nAn administrator enrolled you in ${one ? "this course" : "these courses"} on ${input.issuer.name}:\n\n${courseLines(titles)}\n\n${one ? "Start learning" : "Find them on your dashboard"}:${first}\n\n${input.link}\n${signatureText(input.issuer)}`,
    html: layout(
      input.issuer,
      one ? "You have a new course" : "You have new courses",
      `Hello ${esc(input.name)},<br><br>An administrator enrolled you in ${one ? "this course" : "these courses"} on ${esc(input.issuer.name)}:${courseItems(titles)}${first ? `<br>${esc(first.trim())}` : ""}`,
      { label, link: input.link },
    ),
  };
}

export function passwordResetMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  link: string;
}): MailMessage {
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: `Reset your ${input.issuer.name} password`,
    link: input.link,
    text: `Hello ${input.name},\n\nSomeone (hopefully you) asked to reset your ${input.issuer.name} password. Choose a new one here:\n\n${input.link}\n\nThis link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.\n${signatureText(input.issuer)}`,
    html: layout(
      input.issuer,
      "Reset your password",
      `Hello ${esc(input.name)},<br><br>Someone (hopefully you) asked to reset your ${esc(input.issuer.name)} password. This link works once and expires in 1 hour. If you did not ask for it, ignore this email: your password stays as it is.`,
      { label: "Choose a new password", link: input.link },
    ),
  };
}

export function certificateMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  courseTitle: string;
  verifyUrl: string;
  pdf: { filename: string; content: Buffer };
}): MailMessage {
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: `Your certificate for ${input.courseTitle}`,
    link: input.verifyUrl,
    text: `Hello ${input.name},\n\nCongratulations on completing ${input.courseTitle}. Your certificate is attached as a PDF.\n\nAnyone can check that it is genuine at this address:\n\n${input.verifyUrl}\n${signatureText(input.issuer)}`,
    html: layout(
      input.issuer,
      "Congratulations on your certificate",
      `Hello ${esc(input.name)},<br><br>Congratulations on completing <strong>${esc(input.courseTitle)}</strong>. Your certificate is attached as a PDF. Anyone can check that it is genuine at its verification page.`,
      { label: "Verify your certificate", link: input.verifyUrl },
    ),
    attachments: [{ ...input.pdf, contentType: "application/pdf" }],
  };
}

/**
 * Tells the learner their certificate was revoked, when and why, and where anyone checking it
 * now sees it as revoked. Sent once, after the revocation committed.
 */
export function certificateRevokedMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  courseTitle: string;
  reason: string;
  revokedAt: Date;
  verifyUrl: string;
}): MailMessage {
  // In UTC, like every date the server prints, in the organisation's date format.
  const on = formatDocumentDate(input.revokedAt.toISOString(), input.issuer.dateFormat);
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: `Your certificate for ${input.courseTitle} was revoked`,
    link: input.verifyUrl,
    text: `Hello ${input.name},\n\nYour certificate for ${input.courseTitle} was revoked on ${on} (UTC).\n\nReason: ${input.reason}\n\nAnyone who checks the certificate now sees it as revoked, and its credit no longer counts on your transcript. Its verification page:\n\n${input.verifyUrl}\n\nIf you have questions about this decision, contact ${input.issuer.name}.\n${signatureText(input.issuer)}`,
    html: layout(
      input.issuer,
      "Your certificate was revoked",
      `Hello ${esc(input.name)},<br><br>Your certificate for <strong>${esc(input.courseTitle)}</strong> was revoked on ${esc(on)} (UTC).<br><br>Reason: ${esc(input.reason)}<br><br>Anyone who checks the certificate now sees it as revoked, and its credit no longer counts on your transcript. If you have questions about this decision, contact ${esc(input.issuer.name)}.`,
      { label: "See the verification page", link: input.verifyUrl },
    ),
  };
}

/**
 * RFC 8058 one-click unsubscribe: mail programs show an Unsubscribe button and POST to the
 * link themselves; the body of the mail links to the page that asks first.
 */
function reminderParts(unsubscribe: { page: string; oneClick: string }) {
  return {
    headers: {
      "List-Unsubscribe": `<${unsubscribe.oneClick}>`,
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    },
    text: `\n--\nTo stop reminder emails, open: ${unsubscribe.page}\n`,
    footer: `You receive reminders about courses you are enrolled in. <a href="${esc(unsubscribe.page)}" style="color:#4f46e5">Unsubscribe from reminder emails</a>.`,
  };
}

export function inactivityReminderMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  courseTitle: string;
  courseLink: string;
  inactiveDays: number;
  unsubscribe: { page: string; oneClick: string };
}): MailMessage {
  const parts = reminderParts(input.unsubscribe);
  const since = `${input.inactiveDays} day${input.inactiveDays === 1 ? "" : "s"}`;
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: `Continue ${input.courseTitle}`,
    link: input.courseLink,
    headers: parts.headers,
    text: `Hello ${input.name},\n\nYou have not worked on ${input.courseTitle} for ${since}. Pick up where you left off:\n\n${input.courseLink}\n${signatureText(input.issuer)}${parts.text}`,
    html: layout(
      input.issuer,
      "Pick up where you left off",
      `Hello ${esc(input.name)},<br><br>You have not worked on <strong>${esc(input.courseTitle)}</strong> for ${since}. Your progress is saved: continue whenever you are ready.`,
      { label: "Continue the course", link: input.courseLink },
      parts.footer,
    ),
  };
}

export function expiryReminderMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  courseTitle: string;
  courseLink: string;
  /** The last day the learner can still take steps (UTC). */
  endsOn: Date;
  unsubscribe: { page: string; oneClick: string };
}): MailMessage {
  const parts = reminderParts(input.unsubscribe);
  // In UTC, like every date the server prints, in the organisation's date format.
  const until = formatDocumentDate(input.endsOn.toISOString(), input.issuer.dateFormat);
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: `${input.courseTitle} closes on ${until}`,
    link: input.courseLink,
    headers: parts.headers,
    text: `Hello ${input.name},\n\nYour access to ${input.courseTitle} ends on ${until} (UTC). Finish it before then to earn its certificate:\n\n${input.courseLink}\n${signatureText(input.issuer)}${parts.text}`,
    html: layout(
      input.issuer,
      "Your course closes soon",
      `Hello ${esc(input.name)},<br><br>Your access to <strong>${esc(input.courseTitle)}</strong> ends on ${esc(until)} (UTC). Finish it before then to earn its certificate.`,
      { label: "Continue the course", link: input.courseLink },
      parts.footer,
    ),
  };
}

/**
 * The administrators' weekly digest of regulator reporting: per regulator, the claims waiting
 * longer than its deadline, with a link to the Reporting page.
 */
export function reportingDigestMail(input: {
  issuer: MailIssuer;
  to: string;
  name: string;
  link: string;
  regulators: {
    name: string;
    deadlineDays: number;
    claims: {
      learnerName: string;
      courseTitle: string;
      completedOn: string;
      waitingDays: number;
    }[];
  }[];
}): MailMessage {
  const count = input.regulators.reduce((n, r) => n + r.claims.length, 0);
  const claimsText = (n: number) => `${n} claim${n === 1 ? "" : "s"}`;
  const lines = input.regulators.flatMap((r) => [
    `${r.name} (report within ${r.deadlineDays} days): ${claimsText(r.claims.length)}`,
    ...r.claims.map(
      (c) =>
        `  - ${c.learnerName}, ${c.courseTitle}: completed ${c.completedOn}, waiting ${c.waitingDays} days`,
    ),
  ]);
  const html = input.regulators
    .map(
      (r) =>
        `<strong>${esc(r.name)}</strong> (report within ${r.deadlineDays} days): ${claimsText(r.claims.length)}<ul style="margin:4px 0 12px;padding-left:20px">${r.claims
          .map(
            (c) =>
              `<li>${esc(c.learnerName)}, ${esc(c.courseTitle)}: completed ${esc(c.completedOn)}, waiting ${c.waitingDays} days</li>`,
          )
          .join("")}</ul>`,
    )
    .join("");
  return {
    to: input.to,
    ...fromOf(input.issuer),
    subject: `${claimsText(count)} waiting to be reported to regulators`,
    link: input.link,
    text: `Hello ${input.name},\n\nThese completions have waited longer than their regulator's deadline:\n\n${lines.join("\n")}\n\nGenerate and submit their files on the Reporting page:\n\n${input.link}\n${signatureText(input.issuer)}`,
    html: layout(
      input.issuer,
      "Completions waiting to be reported",
      `Hello ${esc(input.name)},<br><br>These completions have waited longer than their regulator's deadline:<br><br>${html}`,
      { label: "Open Reporting", link: input.link },
    ),
  };
}
