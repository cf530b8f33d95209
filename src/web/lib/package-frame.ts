/**
 * The sandbox of every frame that shows package content (the player, the administrator's
 * preview): scripts and forms run in the content origin, popups open (some packages open a
 * glossary), dialogs show (packages ask "resume where you left off?" with confirm()). Never
 * allow-top-navigation: the content cannot navigate the portal's window (SECURITY.md).
 */
export const PACKAGE_FRAME_SANDBOX =
  "allow-scripts allow-same-origin allow-forms allow-popups allow-modals";
