"""The services behind the ``Memory`` facade, one job each. ``Memory`` builds them over
one shared :class:`~cognimem.services.components.Components` and hands each public call
to one of them:

- ``writing``: write and write_batch, and the ingestion of a queued write's job;
- ``reading``: read and turn;
- ``editing``: update (retried under concurrent edits), delete, forget, resolve_conflict;
- ``browsing``: items and events by id, facts, entities, relations, conflicts, history,
  stats;
- ``sessions``: create, get, list and close sessions; a closed session refuses writes;
- ``transfer``: export, import and a user's erasure across store, queue and caches;
- ``jobs``: a job's state, the worker's claim-run-acknowledge step and loop, the sweep
  that requeues stranded jobs;
- ``lifecycle_jobs``: lifecycle operations by name, as admin calls (a dry run inline,
  else a job), run under a lease on their scope, and the worker's scheduler;
- ``embedding_check``: the embedding model against the database's, at start.

The pure decisions live below them (``ingest/``, ``recall/``, ``lifecycle/``); the
services load, check, decide through those and store. Each lifecycle operation
(consolidation, revision) is a service of its own here, registered by name with
``lifecycle_jobs``.
"""
