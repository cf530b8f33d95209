-- A CPE Monitor claim being sent by one instance is not sent by another meanwhile.
ALTER TABLE "cpe_monitor_submissions" ADD COLUMN "sending_until" timestamp with time zone;