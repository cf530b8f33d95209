CREATE TABLE "learner_identifiers" (
	"user_id" text PRIMARY KEY NOT NULL,
	"licences" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"npi" text DEFAULT '' NOT NULL,
	"nabp_epid" text DEFAULT '' NOT NULL,
	"npn" text DEFAULT '' NOT NULL,
	"birth_month" smallint,
	"birth_day" smallint,
	"first_name" text DEFAULT '' NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"profession" text DEFAULT '' NOT NULL,
	"certifying_board" text DEFAULT '' NOT NULL,
	"board_id" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learner_identifiers_birth_check" CHECK (("learner_identifiers"."birth_month" is null) = ("learner_identifiers"."birth_day" is null) and "learner_identifiers"."birth_month" between 1 and 12 and "learner_identifiers"."birth_day" between 1 and 31)
);
--> statement-breakpoint
-- Each learner's professional identifiers become one record: the licence the profile kept,
-- the identifiers given for regulators, and, where those leave a value empty, the identifiers
-- the learner's latest reported claim was made with. The claims keep their own copy.
-- The profile's licence comes first (certificates print the first licence); its issuing state
-- becomes the state's code, and a board written beside the state stays with the licence type.
INSERT INTO "learner_identifiers" ("user_id", "licences", "npi", "nabp_epid", "npn", "birth_month",
		"birth_day", "first_name", "last_name", "profession", "certifying_board", "board_id", "updated_at")
WITH "states" ("code", "name") AS (VALUES
		('AK', 'Alaska'),
		('AL', 'Alabama'),
		('AR', 'Arkansas'),
		('AS', 'American Samoa'),
		('AZ', 'Arizona'),
		('CA', 'California'),
		('CO', 'Colorado'),
		('CT', 'Connecticut'),
		('DC', 'District of Columbia'),
		('DE', 'Delaware'),
		('FL', 'Florida'),
		('GA', 'Georgia'),
		('GU', 'Guam'),
		('HI', 'Hawaii'),
		('IA', 'Iowa'),
		('ID', 'Idaho'),
		('IL', 'Illinois'),
		('IN', 'Indiana'),
		('KS', 'Kansas'),
		('KY', 'Kentucky'),
		('LA', 'Louisiana'),
		('MA', 'Massachusetts'),
		('MD', 'Maryland'),
		('ME', 'Maine'),
		('MI', 'Michigan'),
		('MN', 'Minnesota'),
		('MO', 'Missouri'),
		('MP', 'Northern Mariana Islands'),
		('MS', 'Mississippi'),
		('MT', 'Montana'),
		('NC', 'North Carolina'),
		('ND', 'North Dakota'),
		('NE', 'Nebraska'),
		('NH', 'New Hampshire'),
		('NJ', 'New Jersey'),
		('NM', 'New Mexico'),
		('NV', 'Nevada'),
		('NY', 'New York'),
		('OH', 'Ohio'),
		('OK', 'Oklahoma'),
		('OR', 'Oregon'),
		('PA', 'Pennsylvania'),
		('PR', 'Puerto Rico'),
		('RI', 'Rhode Island'),
		('SC', 'South Carolina'),
		('SD', 'South Dakota'),
		('TN', 'Tennessee'),
		('TX', 'Texas'),
		('UT', 'Utah'),
		('VA', 'Virginia'),
		('VI', 'Virgin Islands'),
		('VT', 'Vermont'),
		('WA', 'Washington'),
		('WI', 'Wisconsin'),
		('WV', 'West Virginia'),
		('WY', 'Wyoming')),
	"latest_claim" AS (
		SELECT DISTINCT ON (a."user_id") a."user_id", c."regulator_ids" -> 'ids' AS "ids"
		FROM "attestation_credits" c JOIN "attestations" a ON a."id" = c."attestation_id"
		WHERE a."user_id" IS NOT NULL AND c."regulator_ids" IS NOT NULL
		ORDER BY a."user_id", a."attested_at" DESC, c."position" DESC),
	"learners" AS (
		SELECT "user_id" FROM "learner_licences"
		UNION SELECT "user_id" FROM "learner_regulator_ids"
		UNION SELECT "user_id" FROM "latest_claim"),
	"given" AS (
		SELECT u."user_id",
			coalesce(l."licence_type", '') AS "l_type",
			coalesce(l."licence_number", '') AS "l_number",
			coalesce(l."licence_state", '') AS "l_state",
			coalesce(l."npn", '') AS "npn",
			(SELECT s."code" FROM "states" s
				WHERE upper(btrim(l."licence_state")) = s."code"
					OR (' ' || regexp_replace(lower(l."licence_state"), '[^a-z]+', ' ', 'g') || ' ')
						LIKE ('% ' || lower(s."name") || ' %')
				ORDER BY upper(btrim(l."licence_state")) = s."code" DESC, length(s."name") DESC
				LIMIT 1) AS "l_code",
			CASE WHEN r."licence_number" <> '' THEN r."licence_state"
				ELSE coalesce(c."ids" ->> 'licenceState', '') END AS "r_state",
			CASE WHEN r."licence_number" <> '' THEN r."licence_number"
				ELSE coalesce(c."ids" ->> 'licenceNumber', '') END AS "r_number",
			coalesce(nullif(r."npi", ''), c."ids" ->> 'npi', '') AS "npi",
			coalesce(nullif(r."nabp_epid", ''), c."ids" ->> 'nabpEpid', '') AS "nabp_epid",
			CASE WHEN r."birth_month" IS NOT NULL THEN r."birth_month"
				WHEN (c."ids" ->> 'birthDay') IS NOT NULL THEN (c."ids" ->> 'birthMonth')::smallint END AS "birth_month",
			CASE WHEN r."birth_month" IS NOT NULL THEN r."birth_day"
				WHEN (c."ids" ->> 'birthMonth') IS NOT NULL THEN (c."ids" ->> 'birthDay')::smallint END AS "birth_day",
			coalesce(nullif(r."first_name", ''), c."ids" ->> 'firstName', '') AS "first_name",
			coalesce(nullif(r."last_name", ''), c."ids" ->> 'lastName', '') AS "last_name",
			coalesce(nullif(r."profession", ''), c."ids" ->> 'profession', '') AS "profession",
			CASE WHEN r."board_id" <> '' THEN r."certifying_board"
				ELSE coalesce(c."ids" ->> 'certifyingBoard', '') END AS "certifying_board",
			CASE WHEN r."board_id" <> '' THEN r."board_id"
				ELSE coalesce(c."ids" ->> 'boardId', '') END AS "board_id",
			coalesce(greatest(l."updated_at", r."updated_at"), now()) AS "updated_at"
		FROM "learners" u
			LEFT JOIN "learner_licences" l ON l."user_id" = u."user_id"
			LEFT JOIN "learner_regulator_ids" r ON r."user_id" = u."user_id"
			LEFT JOIN "latest_claim" c ON c."user_id" = u."user_id"),
	"compared" AS (
		SELECT g.*,
			-- The profile's licence and the regulators' are one when their numbers (and any
			-- states known) agree.
			g."l_number" <> '' AND upper(g."l_number") = upper(g."r_number")
				AND (g."l_code" IS NULL OR g."l_code" = g."r_state") AS "same",
			upper(btrim(g."l_state")) IN (g."l_code", upper(st."name")) AS "state_only"
		FROM "given" g LEFT JOIN "states" st ON st."code" = g."l_code")
SELECT "user_id",
	CASE WHEN "l_type" <> '' OR "l_number" <> '' OR "l_state" <> '' THEN jsonb_build_array(jsonb_build_object(
		'licenceType', CASE WHEN "l_state" = '' OR coalesce("state_only", false) THEN "l_type"
			ELSE concat_ws(', ', nullif("l_type", ''), "l_state") END,
		'licenceState', coalesce("l_code", CASE WHEN "same" THEN "r_state" END, ''),
		'licenceNumber', "l_number"))
	ELSE '[]'::jsonb END
	|| CASE WHEN "r_number" <> '' AND NOT "same" THEN jsonb_build_array(jsonb_build_object(
		'licenceType', '', 'licenceState', "r_state", 'licenceNumber', "r_number"))
	ELSE '[]'::jsonb END,
	"npi", "nabp_epid", "npn", "birth_month", "birth_day", "first_name", "last_name", "profession",
	"certifying_board", "board_id", "updated_at"
FROM "compared";
--> statement-breakpoint
DROP TABLE "learner_licences" CASCADE;--> statement-breakpoint
DROP TABLE "learner_regulator_ids" CASCADE;--> statement-breakpoint
ALTER TABLE "learner_identifiers" ADD CONSTRAINT "learner_identifiers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;