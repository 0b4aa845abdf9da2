"""CPU per message of the rule extractor, and where it goes.

What it measures: ``RuleExtractor.extract_one`` (role ``user``, at a fixed time, each
message alone, as ``extraction_dump.py`` reads them) over every turn of a LoCoMo file,
after one warm-up pass: process CPU per message (``time.process_time``), median over
``--passes`` passes.

Three uses (from a tree's root):

    python benchmarks/extraction_cpu.py run [PATH] [--passes 5]
        one tree (the one on the path): each pass's CPU ms per message, the median
    python benchmarks/extraction_cpu.py compare [PATH] --tree BASE --tree BRANCH
        [--rounds 6] [--passes 3]
        trees alternated, one process each per round (a change of load on a shared
        machine falls on both), medians of the rounds' medians
    python benchmarks/extraction_cpu.py instructions [PATH] --tree BASE --tree BRANCH
        [--limit 600]
        instructions of one pass over the first ``--limit`` turns, each tree under
        ``valgrind --tool=callgrind`` (``--dump-before=os_getppid``, called around the
        pass; ``PYTHONHASHSEED=0``): a count the machine's load does not move
    python benchmarks/extraction_cpu.py table RAW [--top 30]
        where the CPU goes, from ``py-spy record -r 200 -f raw -o RAW -- python
        benchmarks/extraction_cpu.py run --passes 12``: the share of the samples
        inside ``extract_one`` by function (self: the function's own bytecode and the
        C calls it makes, a regex scan among them) and by module (inclusive)

PATH defaults to ../shared/data/locomo/locomo10_dev.json (read, never copied).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path

from read_callgrind import callgrind_prefix

HERE = Path(__file__).resolve().parent
DEFAULT = Path("../shared/data/locomo/locomo10_dev.json")
_AT = datetime(2024, 3, 15, 12, 0, tzinfo=UTC)


def run(path: Path, passes: int, limit: int | None = None, mark: bool = False) -> list[float]:
    """CPU ms per message of each pass over the file's first ``limit`` turns (after a
    warm-up pass); ``mark``: ``os.getppid`` called before and after each pass (the
    markers callgrind dumps its counts at)."""
    from cognimem.ingest.extract.rules import RuleExtractor
    from cognimem.models.extraction import ExtractionInput

    messages = []
    for sample in json.loads(path.read_text()):
        conversation = sample["conversation"]
        for key in sorted(conversation):
            turns = conversation[key]
            if key.startswith("session_") and isinstance(turns, list):
                messages += [
                    ExtractionInput(text=t["text"], occurred_at=_AT, author=t.get("speaker"))
                    for t in turns
                ]
    messages = messages[:limit]
    extractor = RuleExtractor()
    for message in messages:
        extractor.extract_one(message)
    out = []
    for _ in range(passes):
        if mark:
            os.getppid()
        start = time.process_time()
        for message in messages:
            extractor.extract_one(message)
        out.append((time.process_time() - start) / len(messages) * 1000)
        if mark:
            os.getppid()
    return out


def instructions(path: Path, trees: list[Path], limit: int) -> None:
    for tree in trees:
        with tempfile.TemporaryDirectory() as out:
            env = {**os.environ, "PYTHONPATH": f"{tree / 'src'}:{tree}", "PYTHONHASHSEED": "0"}
            command = [
                *callgrind_prefix(out),
                sys.executable,
                str(Path(__file__).resolve()),
                "run",
                str(path),
                "--passes",
                "1",
                "--limit",
                str(limit),
                "--mark",
            ]
            subprocess.run(command, env=env, check=True, capture_output=True)
            dumps = sorted(Path(out).glob("cg.*.*"), key=lambda p: int(p.name.rsplit(".", 1)[1]))
            # dump 1: start-up and warm-up; dump 2: the pass (ended by the second marker)
            total = next(
                int(line.split()[1])
                for line in dumps[1].read_text().splitlines()
                if line.startswith(("summary:", "totals:"))
            )
            print(f"{tree}: {total} instructions, {total / limit:.0f} a message ({limit} turns)")


def compare(path: Path, trees: list[Path], rounds: int, passes: int) -> None:
    found: dict[Path, list[float]] = {t: [] for t in trees}
    for r in range(rounds):
        for tree in trees if r % 2 == 0 else trees[::-1]:
            env = {**os.environ, "PYTHONPATH": f"{tree / 'src'}:{tree}"}
            command = [sys.executable, str(Path(__file__).resolve()), "run", str(path)]
            done = subprocess.run(
                [*command, "--passes", str(passes)],
                env=env,
                capture_output=True,
                text=True,
                check=True,
            )
            median = float(done.stdout.split()[-1])
            found[tree].append(median)
            print(f"round {r} {tree}: {median:.4f} ms/msg", flush=True)
    for tree, values in found.items():
        print(f"{tree}: median {statistics.median(values):.4f} ms/msg over {rounds} rounds")


def table(raw: Path, top: int) -> None:
    own: Counter[str] = Counter()
    modules: Counter[str] = Counter()
    total = 0
    for line in raw.read_text().splitlines():
        stack, count = line.rsplit(" ", 1)
        frames = stack.split(";")
        inside = [i for i, f in enumerate(frames) if "extract_one" in f]
        if not inside:
            continue
        n = int(count)
        total += n
        named = [
            re.sub(r" \((.*?):\d+\)$", lambda m: f" ({m.group(1).split('cognimem/')[-1]})", f)
            for f in frames[inside[0] :]
        ]
        own[named[-1]] += n
        for module in {f[f.rfind("(") + 1 : -1] for f in named}:
            modules[module] += n
    print(f"{total} samples inside extract_one\n")
    print("| function (module) | self % |\n|---|---|")
    for name, n in own.most_common(top):
        print(f"| `{name}` | {100 * n / total:.1f} |")
    print("\n| module | inclusive % |\n|---|---|")
    for name, n in modules.most_common(top):
        print(f"| `{name}` | {100 * n / total:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="what", required=True)
    one = sub.add_parser("run")
    one.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    one.add_argument("--passes", type=int, default=5)
    two = sub.add_parser("compare")
    two.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    two.add_argument("--tree", type=Path, action="append", required=True)
    two.add_argument("--rounds", type=int, default=6)
    two.add_argument("--passes", type=int, default=3)
    one.add_argument("--limit", type=int)
    one.add_argument("--mark", action="store_true")
    four = sub.add_parser("instructions")
    four.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    four.add_argument("--tree", type=Path, action="append", required=True)
    four.add_argument("--limit", type=int, default=600)
    three = sub.add_parser("table")
    three.add_argument("raw", type=Path)
    three.add_argument("--top", type=int, default=30)
    args = parser.parse_args()
    if args.what == "run":
        found = run(args.path, args.passes, args.limit, args.mark)
        print(" ".join(f"{v:.4f}" for v in found), "median", f"{statistics.median(found):.4f}")
    elif args.what == "instructions":
        instructions(args.path, [t.resolve() for t in args.tree], args.limit)
    elif args.what == "compare":
        compare(args.path, [t.resolve() for t in args.tree], args.rounds, args.passes)
    else:
        table(args.raw, args.top)


if __name__ == "__main__":
    main()
