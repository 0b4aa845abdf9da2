"""The lifecycle services: each operation a service of its own (``consolidation``,
``decay``, ``forgetting_policy``, ``promotion``, ``revision``, ``procedures``,
``summaries``), registered by name with ``operations``, which runs them as admin calls
or jobs under a lease on their scope and holds the worker's scheduler."""
