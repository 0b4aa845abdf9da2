"""SQLite schema version 10: event jobs."""

SQL = """
-- the job that derives an unprocessed event's items, and its ingest profile (async
-- ingestion): a worker's sweep queues a job again from these alone, so a crash between
-- committing the events and queuing their job strands nothing
ALTER TABLE events ADD COLUMN job_id TEXT;
ALTER TABLE events ADD COLUMN profile TEXT;
CREATE INDEX events_unprocessed ON events (recorded_at) WHERE processed = 0;
CREATE INDEX events_unprocessed_job ON events (job_id) WHERE processed = 0;
"""
