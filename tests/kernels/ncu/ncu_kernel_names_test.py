#!/usr/bin/env python3
"""kernels/measure/ncu_kernel_names.py against a stand-in ncu (fake_ncu.py):
launches are attributed to their workload, pivoted and summarised; a failing,
a timed-out and an unprofiled workload are named in the summary and make the
exit status 1; bad input exits 2 naming the file."""
import csv
import os
import subprocess
import sys
import tempfile
import unittest

try:
    import yaml  # noqa: F401 (the tool and the stand-in need it)
except ImportError:
    sys.exit(77)

HERE = os.path.dirname(os.path.abspath(__file__))
TOOL = os.path.join(HERE, "..", "..", "..", "kernels", "measure", "ncu_kernel_names.py")
FAKE_NCU = os.path.join(HERE, "fake_ncu.py")


def run_tool(*args):
    return subprocess.run([sys.executable, TOOL, *args], capture_output=True, text=True, timeout=60)


def read_csv(path):
    with open(path) as f:
        return list(csv.DictReader(f))


class NcuKernelNamesTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        self.study = os.path.join(self.dir.name, "study.yaml")
        self.out = os.path.join(self.dir.name, "cal")

    def write_study(self, names):
        with open(self.study, "w") as f:
            f.write("hardware: h200_sxm\nworkloads:\n")
            for n in names:
                f.write(f"  - {{name: {n}, gemm: {{m: 72, n: 73, k: 1000, dtype: bf16}}}}\n")

    def profile(self, *extra):
        return run_tool(self.study, "--measure", "/bin/true", "--out", self.out, "--ncu", FAKE_NCU,
                        *extra)

    def test_launches_attributed_and_summarised(self):
        self.write_study(["plain", "with_split"])
        done = self.profile()
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertIn("2 of 2 workloads profiled, 5 launches", done.stdout)
        launches = read_csv(self.out + "_ncu.csv")
        self.assertEqual([(l["workload"], l["kernel"], l["time_ns"]) for l in launches[:2]],
                         [("plain", "gemm_plain", "5056"), ("plain", "gemm_plain", "4864")])
        self.assertEqual(launches[4]["kernel"], "splitKreduce_kernel")
        self.assertEqual((launches[4]["grid"], launches[4]["block"], launches[4]["registers"]),
                         ("(16, 1, 1)", "(128, 1, 1)", "32"))
        summary = read_csv(self.out + "_ncu_summary.csv")
        self.assertEqual([(s["workload"], s["kernel"], s["launches"], s["median_time_us"], s["status"])
                          for s in summary],
                         [("plain", "gemm_plain", "2", "4.960", "ok"),
                          ("with_split", "gemm_with_split", "2", "4.960", "ok"),
                          ("with_split", "splitKreduce_kernel", "1", "2.300", "ok")])

    def test_failure_is_named_and_exits_1(self):
        self.write_study(["will_fail", "plain"])
        done = self.profile()
        self.assertEqual(done.returncode, 1, done.stderr)
        status = {s["workload"]: s["status"] for s in read_csv(self.out + "_ncu_summary.csv")}
        self.assertEqual(status, {"will_fail": "ncu rc=1: ==ERROR== the profiled application failed",
                                  "plain": "ok"})

    def test_timeout_and_spent_budget_are_named(self):
        self.write_study(["too_slow", "plain"])
        done = self.profile("--per-workload-s", "0.5", "--budget-s", "0.3")
        self.assertEqual(done.returncode, 1, done.stderr)
        status = {s["workload"]: s["status"] for s in read_csv(self.out + "_ncu_summary.csv")}
        self.assertEqual(status, {"too_slow": "timeout after 0.5 s",
                                  "plain": "not run: budget of 0.3 s spent"})

    def test_dry_run_prints_one_command_per_workload(self):
        self.write_study(["a", "b"])
        done = self.profile("--kernels", "gemm|splitK", "--skip", "3", "--count", "4", "--dry-run")
        self.assertEqual(done.returncode, 0, done.stderr)
        lines = done.stdout.splitlines()
        self.assertEqual(len(lines), 2)
        self.assertTrue(lines[1].startswith("b: " + FAKE_NCU + " --clock-control none"))
        self.assertIn("-s 3 -c 4 -k regex:gemm|splitK /bin/true", lines[1])
        self.assertFalse(os.path.exists(self.out + "_ncu.csv"))

    def test_bad_study_exits_2_naming_file_and_line(self):
        with open(self.study, "w") as f:
            f.write("workloads:\n  - {name: a\n")
        done = self.profile()
        self.assertEqual(done.returncode, 2)
        self.assertRegex(done.stderr, r"study\.yaml:\d+: not YAML")
        with open(self.study, "w") as f:
            f.write("workloads: []\n")
        done = self.profile()
        self.assertEqual(done.returncode, 2)
        self.assertIn("study.yaml: 'workloads' must be a non-empty list", done.stderr)
        done = run_tool(os.path.join(self.dir.name, "missing.yaml"), "--measure", "x", "--out", "y")
        self.assertEqual(done.returncode, 2)
        self.assertIn("missing.yaml: cannot read", done.stderr)


if __name__ == "__main__":
    unittest.main()
