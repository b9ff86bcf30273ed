"""The Python package gives what the command gives: same numbers, same checks.

Run from the repository root with PYTHONPATH=<build>/python (ctest does)."""

import json
import pathlib
import subprocess
import sys

import pandas
import pytest

import tilesim

QUICKSTART = "configs/studies/quickstart.yaml"
GOLDEN = pathlib.Path("tests/app/cli/golden")


def test_simulate_a_path_matches_the_golden_json():
    rows = tilesim.simulate(QUICKSTART)
    golden = json.loads((GOLDEN / "quickstart.json").read_text())["results"]
    assert [row["name"] for row in rows] == [item["name"] for item in golden]
    assert [row["time_us"] for row in rows] == [item["time_us"] for item in golden]
    assert rows[0]["bytes.hbm_read"] == golden[0]["bytes"]["hbm_read"]


def test_html_report_from_python(tmp_path):
    page = tmp_path / "quickstart.html"
    tilesim.simulate(QUICKSTART, html=page)
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_results_go_straight_into_pandas():
    frame = pandas.DataFrame(tilesim.simulate(QUICKSTART))
    assert {"name", "schedule", "time_us", "tflops", "bytes.hbm_read"} <= set(frame.columns)
    slowest = frame.sort_values("time_us").iloc[-1]
    assert slowest["name"] == "square_8192"


def test_a_dict_study_gives_what_the_same_yaml_gives():
    study = {"hardware": "h100_sxm",
             "workloads": [{"name": "square_1536", "gemm": {"m": 1536, "n": 1536, "k": 1536, "dtype": "bf16"},
                            "schedule": "stream_k", "tile": {"m": 128, "n": 128, "k": 64}}]}
    (row,) = tilesim.simulate(study)
    assert row["schedule"].startswith("stream_k")
    assert 10 < row["time_us"] < 30


def test_hardware_overrides_as_a_dict_change_the_answer():
    decode = {"hardware": "h100_sxm",
              "workloads": [{"name": "decode", "gemm": {"m": 16, "n": 8192, "k": 8192, "dtype": "bf16"},
                             "tile": {"m": 64, "n": 128, "k": 64}}]}
    (base,) = tilesim.simulate(decode)
    (faster,) = tilesim.simulate(decode, set={"hbm.bandwidth": "6.7 TB/s"})
    (h200,) = tilesim.simulate(decode, hw="h200_sxm")
    assert faster["time_us"] < 0.7 * base["time_us"]
    assert h200["time_us"] < base["time_us"]


def test_bad_input_raises_with_file_line_and_key():
    with pytest.raises(tilesim.InputError) as raised:
        tilesim.simulate("tests/app/cli/data/bad_study.yaml")
    problems = raised.value.problems
    assert len(problems) == 2
    assert (problems[0].file, problems[0].line) == ("tests/app/cli/data/bad_study.yaml", 5)
    assert problems[0].key == "workloads[0].gemm.m"
    assert "did you mean `schedule`" in problems[1].message


def test_a_bad_dict_names_the_key_path_not_a_temporary_file():
    with pytest.raises(tilesim.InputError) as raised:
        tilesim.simulate({"hardware": "h100_sxm", "workloads": [{"name": "x", "gemm": {"m": 0, "n": 8, "k": 8, "dtype": "bf16"}}]})
    (problem,) = raised.value.problems
    assert problem.file == "<study dict>"
    assert problem.key == "workloads[0].gemm.m"
    assert "tilesim-" not in str(raised.value)


def test_an_unknown_override_is_refused():
    with pytest.raises(tilesim.InputError, match="did you mean"):
        tilesim.simulate(QUICKSTART, set={"hbm.bandwith": "1 TB/s"})


def test_explain_breakdown_adds_up_and_what_ifs_are_simulated():
    explanations = tilesim.explain(QUICKSTART)
    assert len(explanations) == 5
    decode = explanations[-1]
    assert abs(sum(decode["breakdown_us"].values()) - decode["time_us"]) < 1e-3 * decode["time_us"]
    assert decode["bound"] == "hbm" and "HBM" in decode["reason"]
    hbm = next(w for w in decode["what_if"] if w["change"] == "2x HBM bandwidth")
    # HBM-bound, so twice the bandwidth pays, up to where the L2 slices (every byte
    # through them twice, l2.slice_bandwidth) become the limit: -36.7% today.
    assert -0.5 < hbm["time_change"] < -0.2


def test_sweep_rows_match_the_golden_csv():
    rows = tilesim.sweep("configs/sweeps/l2_capacity.yaml", jobs=2)
    golden = (GOLDEN / "sweep_l2_capacity.csv").read_text().splitlines()
    assert len(rows) == len(golden) - 1
    assert isinstance(rows[0]["time_us"], float)
    assert pandas.DataFrame(rows)["gemm.k"].nunique() == 4


# Run in a fresh interpreter: one that has freed large blocks (pandas, numpy)
# has raised glibc's trim threshold already.
SWEEP_PAGE_FAULTS = """
import resource, tilesim
grid = {"hardware": "h100_sxm",
        "workload": {"name": "grid", "gemm": {"m": 128, "n": 256, "k": 4096, "dtype": "bf16"}},
        "vary": [{"key": "gemm.m", "range": {"from": 128, "to": 1280, "step": 128}},
                 {"key": "gemm.n", "range": {"from": 256, "to": 2560, "step": 256}}]}
tilesim.sweep(grid, approximate=True)
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
assert len(tilesim.sweep(grid, approximate=True)) == 100
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def test_sweep_keeps_freed_memory_as_the_command_does():
    # With glibc's defaults every point of a sweep hands its memory back and the
    # next faults it in again: 335 minor page faults for these 100 points; with
    # the command's allocator policy, 9.
    faults = subprocess.run([sys.executable, "-c", SWEEP_PAGE_FAULTS], check=True,
                            capture_output=True, text=True).stdout
    assert int(faults) < 100


def test_compare_re_simulates_a_committed_measurement_file():
    report = tilesim.compare("bench/measurements/h100_sxm_2026-11-21_gemm_dataset.csv")
    assert len(report["rows"]) > 20
    assert all(row["measured_us"] > 0 and row["predicted_us"] > 0 for row in report["rows"])
    assert 0 < report["metrics"]["all"]["mape_percent"] < 20


def test_validate_reports_every_problem():
    tilesim.validate(QUICKSTART, "configs/hw/h100_sxm.yaml")
    with pytest.raises(tilesim.InputError) as raised:
        tilesim.validate("tests/app/cli/data/bad_sweep.yaml")
    assert len(raised.value.problems) >= 2


def test_version_is_the_commands_version():
    assert tilesim.version().startswith("tilesim ")


def test_a_wrong_argument_type_is_a_type_error():
    with pytest.raises(TypeError):
        tilesim.simulate(42)
