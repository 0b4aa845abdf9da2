"""What happens to memories after they are written: edits and feedback, forgetting,
conflict resolution by the user, sessions, erasure, export and import.

The decisions are pure functions here (``edits``, ``conflicts``); ``transfer`` streams
exports and imports; :class:`~cognimem.memory.Memory` wires them to the store.
"""
