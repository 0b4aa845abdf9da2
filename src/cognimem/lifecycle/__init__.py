"""What happens to memories after they are written: edits and feedback, forgetting,
conflict resolution by the user, sessions, erasure, export and import.

The decisions are pure functions here (``edits``, ``conflicts``); ``transfer`` streams
exports and imports; the services of :mod:`cognimem.services` apply them to the store.
"""
