#!/usr/bin/env python3
"""Tests of scripts/records.py's record reader (run by scripts/engine-tests.sh):
a start position, comments, names with colons, results and bad lines."""

import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from records import read_record  # noqa: E402

RECORD = """\
[Tabula record]
game: stelpur(preset=ludii)
start: 2,3,4,5,6,7/13,14,15,16,18,20 1 - 5 5
# a comment in the header
player 1: alphabeta@0.1:2
player 2: uct
result: win 2

* 6-1
1 1:7-8
# an analysis's note after an action
1 6:8-14
"""


class ReadRecord(unittest.TestCase):
    def read(self, text):
        with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
            f.write(text)
        self.addCleanup(os.unlink, f.name)
        return read_record(f.name)

    def test_a_record_from_a_position_with_comments(self):
        r = self.read(RECORD)
        self.assertEqual(r.game, "stelpur(preset=ludii)")
        self.assertEqual(r.players, {1: "alphabeta@0.1:2", 2: "uct"})
        self.assertEqual(r.actions, [(None, "6-1"), (1, "1:7-8"), (1, "6:8-14")])
        start = "position stelpur(preset=ludii) 2,3,4,5,6,7/13,14,15,16,18,20 1 - 5 5"
        self.assertEqual(r.position(0), f"{start} moves")
        self.assertEqual(r.position(2), f"{start} moves 6-1 1:7-8")
        self.assertEqual(r.position(), f"{start} moves 6-1 1:7-8 6:8-14")
        self.assertEqual(r.points(), {1: 0.0, 2: 1.0})

    def test_the_standard_start_and_draws(self):
        r = self.read(RECORD.replace("start: 2,3,4,5,6,7/13,14,15,16,18,20 1 - 5 5\n", "")
                      .replace("result: win 2", "result: draw 1,2"))
        self.assertIsNone(r.start)
        self.assertEqual(r.position(1), "position stelpur(preset=ludii) startpos moves 6-1")
        self.assertEqual(r.points(), {1: 0.5, 2: 0.5})

    def test_bad_lines_are_named(self):
        with self.assertRaisesRegex(ValueError, "line 10: expected `<seat> <action>`"):
            self.read(RECORD.replace("1 1:7-8", "one 1:7-8"))
        with self.assertRaisesRegex(ValueError, "line 2: expected `key: value`"):
            self.read(RECORD.replace("game: stelpur(preset=ludii)", "stelpur"))
        with self.assertRaisesRegex(ValueError, "no `game:` line"):
            self.read(RECORD.replace("game: stelpur(preset=ludii)\n", ""))


if __name__ == "__main__":
    unittest.main()
