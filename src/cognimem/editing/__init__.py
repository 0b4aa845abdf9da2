"""A user's changes to what the memory holds, as pure decisions: an edit or feedback
(``edits``: an item's new state and its history entry, which items a forget changes),
a fact conflict settled (``conflicts``), a name merge undone (``aliases``).

``services/editing.py`` loads, checks and stores what these decide. Like ``ingest``,
``recall`` and ``lifecycle`` beside it, this package imports none of them (a test
checks): what it shares with them lives in ``text/`` and ``models/``.
"""
