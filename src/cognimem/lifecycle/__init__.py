"""What the lifecycle jobs decide, as pure functions the services of
:mod:`cognimem.services.lifecycle` apply to the store: consolidation (``consolidate``,
``gist_llm``, ``themes``, ``group_facts``), revision after a turn (``revise``), passive
decay (``decay``), promotion by utility (``promote``), procedure detection
(``procedures``) and the forgetting policy (``retention``).

A user's edits are :mod:`cognimem.editing`; export and import streams are
``services/transfer_streams.py``.
"""
