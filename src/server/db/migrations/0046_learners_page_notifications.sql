-- The Learners page is cached in each instance's memory (administration/learners): a page
-- changes when anyone joins the list, not only when one of its learners changes, so a new
-- user is announced as well ('users:<id>', like an update). A provider's name shows beside
-- the learners it created: its changes are announced as 'identity_providers:<id>'.
CREATE TRIGGER users_notify_insert AFTER INSERT ON "users"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_change('id');
--> statement-breakpoint
CREATE TRIGGER identity_providers_notify_change AFTER UPDATE OR DELETE ON "identity_providers"
	FOR EACH ROW EXECUTE FUNCTION credo_notify_change('id');
