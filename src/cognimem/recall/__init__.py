"""The read path: analyze, retrieve, fuse, assemble."""

from cognimem.recall.presets import PRESETS, RecallConfig, get_preset
from cognimem.recall.reader import Reader

__all__ = ["PRESETS", "Reader", "RecallConfig", "get_preset"]
