import { REMINDER_MESSAGES } from "../../../contract";
import { notFound } from "../../plugins/errors";

/** Every token that names no learner gets the same answer: nothing tells them apart. */
export const badUnsubscribeLink = () =>
  notFound("reminders.unsubscribe_link_invalid", REMINDER_MESSAGES.badUnsubscribeLink);
