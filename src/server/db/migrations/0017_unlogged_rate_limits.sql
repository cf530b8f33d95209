-- Request counters are worth nothing after a crash (a window simply starts again), so they
-- skip the write-ahead log: a rate-limited request no longer waits for a WAL flush of its own.
ALTER TABLE "rate_limits" SET UNLOGGED;
