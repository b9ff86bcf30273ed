"""Tests of docs/tutorials/tutorial_check.py against a fake tilesim whose output is fixed,
so that they test the checker, not the model (python3 -m unittest)."""

import os
import shutil
import stat
import subprocess
import sys
import tempfile
import textwrap
import unittest

CHECKER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "tutorials",
                       "tutorial_check.py")

# Prints a table whose numbers depend on FAKE_TIME; `--svg PATH` writes a picture.
FAKE_TILESIM = """#!/usr/bin/env python3
import os, sys
time = os.environ.get("FAKE_TIME", "23.92")
if "bad.yaml" in sys.argv:
    sys.exit("bad.yaml:1:1: error: broken")
if "--svg" in sys.argv:
    with open(sys.argv[sys.argv.index("--svg") + 1], "w") as svg:
        svg.write("<svg>" + time + "</svg>")
print("workload       time_us   HBM_MB")
print(f"square_1536    {time}     14.2")
print("decode         44.67      134.7")
"""

TUTORIAL = textwrap.dedent("""\
    # A tutorial

    ```console tilesim-check
    $ tilesim simulate study.yaml --svg docs/img/t.svg
    workload       time_us   HBM_MB
    ...
    square_1536    23.92     14.2
    ```
    <!-- let square: ^square_1536 +([\\d.]+) -->
    <!-- let decode: ^decode +([\\d.]+) -->

    The square takes 23.92<!-- = square --> us, the decode 1.9<!-- = decode / square -->
    times as long, about 2<!-- = decode / square ~ 10% -->x.
    """)


class TutorialCheckTest(unittest.TestCase):
    def setUp(self):
        self.root = tempfile.mkdtemp()
        self.fake = os.path.join(self.root, "fake_tilesim")
        with open(self.fake, "w") as fake:
            fake.write(FAKE_TILESIM)
        os.chmod(self.fake, os.stat(self.fake).st_mode | stat.S_IXUSR)
        self.write(TUTORIAL)
        os.makedirs(os.path.join(self.root, "docs", "img"))
        self.run_checker("update", "23.92")  # commits the picture

    def tearDown(self):
        shutil.rmtree(self.root)

    def write(self, text):
        with open(os.path.join(self.root, "tutorial.md"), "w") as tutorial:
            tutorial.write(text)

    def read(self):
        with open(os.path.join(self.root, "tutorial.md")) as tutorial:
            return tutorial.read()

    def run_checker(self, mode, time):
        return subprocess.run([sys.executable, CHECKER, mode, "--tilesim", self.fake, "--root", self.root,
                               "tutorial.md"], capture_output=True, text=True,
                              env=dict(os.environ, FAKE_TIME=time))

    def test_passes_when_the_output_matches(self):
        done = self.run_checker("check", "23.92")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        self.assertIn("ok: 1 tutorial(s), 1 command(s)", done.stdout)

    def test_names_each_number_that_moved_by_file_and_line(self):
        done = self.run_checker("check", "24.10")
        self.assertEqual(done.returncode, 1)
        self.assertIn("tutorial.md:7: `tilesim simulate study.yaml --svg docs/img/t.svg` now prints "
                      "other numbers (23.92 -> 24.10)", done.stdout)
        self.assertIn("tutorial.md:12: the text says 23.92 but `square` is now 24.1 (expected 24.10", done.stdout)
        self.assertNotIn("the text says 1.9", done.stdout)  # 44.67 / 24.10 still rounds to 1.9
        self.assertIn("docs/img/t.svg: differs from what its command writes now", done.stdout)
        self.assertNotIn("~", done.stdout)  # 1.85 is still about 2 (within 10%)

    def test_tolerance_fails_beyond_it(self):
        done = self.run_checker("check", "30.00")
        self.assertIn("tutorial.md:13: the text says 2 but `decode / square` is now 1.489 (expected 1, within 10%)",
                      done.stdout)

    def test_update_rewrites_quotes_numbers_and_pictures(self):
        done = self.run_checker("update", "24.10")
        self.assertEqual(done.returncode, 0, done.stdout + done.stderr)
        text = self.read()
        self.assertIn("square_1536    24.10     14.2", text)
        self.assertIn("takes 24.10<!-- = square --> us, the decode 1.9<!-- = decode / square -->", text)
        with open(os.path.join(self.root, "docs", "img", "t.svg")) as svg:
            self.assertEqual(svg.read(), "<svg>24.10</svg>")
        self.assertEqual(self.run_checker("check", "24.10").returncode, 0)

    def test_a_line_that_changed_in_words_is_left_to_a_person(self):
        self.write(TUTORIAL.replace("square_1536    23.92     14.2", "square_1536 is 23.92 us"))
        done = self.run_checker("update", "23.92")
        self.assertEqual(done.returncode, 1)
        self.assertIn("tutorial.md:7: quoted line is not printed by", done.stdout)
        self.assertIn("1 left to fix by hand", done.stdout)

    def test_a_block_must_start_with_a_tilesim_command(self):
        self.write(TUTORIAL.replace("$ tilesim simulate", "$ ls simulate"))
        done = self.run_checker("check", "23.92")
        self.assertEqual(done.returncode, 1)
        self.assertIn("tutorial.md:3: a tilesim-check block starts with `$ tilesim ...`", done.stderr)

    def test_a_failing_command_is_an_error(self):
        self.write(TUTORIAL.replace("study.yaml", "bad.yaml"))
        done = self.run_checker("check", "23.92")
        self.assertEqual(done.returncode, 1)
        self.assertIn("exited with 1:\nbad.yaml:1:1: error: broken", done.stderr)


if __name__ == "__main__":
    unittest.main()
