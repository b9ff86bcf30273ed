"""Every `tilesim` command that README.md and docs/*.md show works from Python.

Each test names the documented command it mirrors and, where the command writes
a file, checks that Python writes the same bytes as the command line (run as a
child process) or as the golden file the CLI tests pin. The last tests read the
docs themselves, so that a command or option documented later without a Python
equivalent fails here.

Run from the repository root with PYTHONPATH=<build>/python (ctest does).
"""

import inspect
import os
import pathlib
import re
import subprocess

import pandas
import pytest

import tilesim

QUICKSTART = "configs/studies/quickstart.yaml"
GOLDEN = pathlib.Path("tests/app/cli/golden")
GEMM_DATASET = "bench/measurements/h100_sxm_2026-11-21_gemm_dataset.csv"
MEASURED_HW = "configs/hw/h100_sxm.measured.yaml"


def _binary():
    # ctest names it; otherwise <build>/bin/tilesim beside <build>/python/tilesim.
    if "TILESIM_BINARY" in os.environ:
        return os.environ["TILESIM_BINARY"]
    return str(pathlib.Path(tilesim.__file__).resolve().parents[2] / "bin" / "tilesim")


def cli(*arguments, status=0):
    """Runs the `tilesim` command; returns its stdout."""
    done = subprocess.run([_binary(), *map(str, arguments)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == status, done.stderr
    return done.stdout


def same_bytes(made, expected):
    return pathlib.Path(made).read_bytes() == pathlib.Path(expected).read_bytes()


# --- tilesim simulate -------------------------------------------------------

def test_simulate_quickstart_json_csv_trace_html_as_the_command_writes_them(tmp_path):
    # README: tilesim simulate STUDY.yaml [--json PATH] [--csv PATH] [--trace PATH] [--html PATH]
    py, sh = tmp_path / "py", tmp_path / "sh"
    py.mkdir(), sh.mkdir()
    rows = tilesim.simulate(QUICKSTART, json=py / "q.json", csv=py / "q.csv",
                            trace=py / "q.trace.json", html=py / "q.html")
    cli("simulate", QUICKSTART, "--json", sh / "q.json", "--csv", sh / "q.csv",
        "--trace", sh / "q.trace.json", "--html", sh / "q.html")
    for name in ("q.json", "q.csv", "q.trace.json", "q.html"):
        assert same_bytes(py / name, sh / name), name
    assert same_bytes(py / "q.json", GOLDEN / "quickstart.json")
    assert [row["name"] for row in rows][0] == "square_8192"


@pytest.mark.parametrize("study", sorted(pathlib.Path("configs/studies").glob("*.yaml")),
                         ids=lambda path: path.stem)
def test_simulate_every_shipped_study_gives_its_golden_json(study, tmp_path):
    # docs/attention.md: tilesim simulate configs/studies/attention_*.yaml;
    # docs/gemm-schedules.md: tilesim simulate configs/studies/gemm_schedules_compare.yaml;
    # the run lines at the top of configs/studies/*.yaml.
    tilesim.simulate(study.as_posix(), json=tmp_path / "out.json")
    assert same_bytes(tmp_path / "out.json", GOLDEN / f"{study.stem}.json")


@pytest.mark.parametrize("study", ["configs/studies/attention_timeline.yaml",
                                   "configs/studies/stream_k_vs_data_parallel.yaml"])
def test_simulate_timeline_as_the_command_draws_it(study, tmp_path):
    # docs/attention.md: tilesim simulate configs/studies/attention_timeline.yaml --timeline ...
    # docs/gemm-schedules.md: tilesim simulate configs/studies/stream_k_vs_data_parallel.yaml --timeline timeline.svg
    tilesim.simulate(study, timeline=tmp_path / "py.svg")
    cli("simulate", study, "--timeline", tmp_path / "sh.svg")
    assert same_bytes(tmp_path / "py.svg", tmp_path / "sh.svg")
    assert "<svg" in (tmp_path / "py.svg").read_text()


def test_simulate_explain_adds_the_explanations_of_tilesim_explain():
    # docs/explain.md: tilesim simulate STUDY.yaml --explain [--json PATH|-]
    rows = tilesim.simulate(QUICKSTART, explain=True)
    explanations = tilesim.explain(QUICKSTART)
    assert [row["explain.name"] for row in rows] == [item["name"] for item in explanations]
    assert rows[-1]["explain.bound"] == explanations[-1]["bound"]


def test_simulate_over_the_budget_is_refused_at_the_workload():
    # docs/limits.md: tilesim simulate tests/bad_inputs/study/over_budget_gemm_1m_square.yaml
    path = "tests/bad_inputs/study/over_budget_gemm_1m_square.yaml"
    with pytest.raises(tilesim.InputError) as raised:
        tilesim.simulate(path)
    (problem,) = raised.value.problems
    assert (problem.file, problem.line, problem.key) == (path, 3, "workloads[0].gemm")
    assert "above the budget of 1e+07" in problem.message
    with pytest.raises(tilesim.InputError, match="above the budget of 1e\\+04"):
        tilesim.simulate(QUICKSTART, max_events=1e4)



def test_simulate_approximate_as_the_command_writes_it(tmp_path):
    # README / docs/model.md: tilesim simulate STUDY --approximate
    rows = tilesim.simulate(QUICKSTART, approximate=True, json=tmp_path / "py.json")
    cli("simulate", QUICKSTART, "--approximate", "--json", tmp_path / "sh.json")
    assert (tmp_path / "py.json").read_bytes() == (tmp_path / "sh.json").read_bytes()
    exact = tilesim.simulate(QUICKSTART)
    assert [row["name"] for row in rows] == [row["name"] for row in exact]
    for approximate_row, exact_row in zip(rows, exact):
        assert approximate_row["time_us"] == pytest.approx(exact_row["time_us"], rel=0.1)


# --- tilesim explain ----------------------------------------------------------

def test_explain_json_as_the_command_writes_it(tmp_path):
    # README / docs/explain.md: tilesim explain configs/studies/quickstart.yaml [--json PATH|-]
    explanations = tilesim.explain(QUICKSTART, json=tmp_path / "py.json")
    cli("explain", QUICKSTART, "--json", tmp_path / "sh.json")
    assert same_bytes(tmp_path / "py.json", tmp_path / "sh.json")
    assert explanations[-1]["name"] == "decode_16x8192x8192"


# --- tilesim roofline -----------------------------------------------------------

def test_roofline_svg_is_the_golden_one(tmp_path):
    # README: tilesim roofline STUDY.yaml --svg PATH
    summary = tilesim.roofline(QUICKSTART, svg=tmp_path / "roofline.svg")
    assert summary == "5 workloads on the h100_sxm roofline"
    assert same_bytes(tmp_path / "roofline.svg", GOLDEN / "roofline_quickstart.svg")


def test_roofline_with_measured_rows_as_the_command_draws_it(tmp_path):
    # docs/explain.md: tilesim roofline configs/studies/quickstart.yaml --svg ... --measured bench/...gemm_dataset.csv
    summary = tilesim.roofline(QUICKSTART, svg=tmp_path / "py.svg", measured=GEMM_DATASET)
    cli("roofline", QUICKSTART, "--svg", tmp_path / "sh.svg", "--measured", GEMM_DATASET)
    assert same_bytes(tmp_path / "py.svg", tmp_path / "sh.svg")
    assert re.fullmatch(r"5 workloads and \d+ measured rows on the h100_sxm roofline", summary)


def test_roofline_hardware_overrides_change_the_plot(tmp_path):
    # docs/explain.md: tilesim roofline STUDY.yaml --svg PATH [--hw ...] [--set ...]
    tilesim.roofline(QUICKSTART, svg=tmp_path / "h200.svg", hw="h200_sxm",
                     set={"hbm.bandwidth": "6 TB/s"})
    cli("roofline", QUICKSTART, "--svg", tmp_path / "sh.svg", "--hw", "h200_sxm",
        "--set", "hbm.bandwidth=6 TB/s")
    assert same_bytes(tmp_path / "h200.svg", tmp_path / "sh.svg")
    assert not same_bytes(tmp_path / "h200.svg", GOLDEN / "roofline_quickstart.svg")


# --- tilesim hierarchy ----------------------------------------------------------

def test_hierarchy_table_is_what_the_command_prints():
    # docs/explain.md: tilesim hierarchy
    table = tilesim.hierarchy()
    assert table == cli("hierarchy")
    assert re.search(r"L2 +- +50 MiB +[0-9.]+ GB/s +7.3 TB/s", table)


def test_hierarchy_svg_and_overrides(tmp_path):
    # README: tilesim hierarchy [--hw NAME|PATH] [--set key=value]... [--svg PATH]
    tilesim.hierarchy(hw="h100_sxm", svg=tmp_path / "hierarchy.svg")
    assert same_bytes(tmp_path / "hierarchy.svg", GOLDEN / "hierarchy_h100_sxm.svg")
    assert "100 MiB" in tilesim.hierarchy(set={"l2.capacity": "100MiB"})
    with pytest.raises(tilesim.InputError, match="h100_sxm"):
        tilesim.hierarchy(hw="h101_sxm")


# --- tilesim validate / schema / --version -------------------------------------

def test_validate_the_shipped_files():
    # docs/sweeps.md: tilesim validate configs/sweeps/*.yaml
    # configs/README.md: tilesim validate configs/kernels/*.yaml
    sweeps = sorted(str(path) for path in pathlib.Path("configs/sweeps").glob("*.yaml"))
    kernels = sorted(str(path) for path in pathlib.Path("configs/kernels").glob("*.yaml"))
    report = tilesim.validate(*sweeps, *kernels)
    assert report == cli("validate", *sweeps, *kernels)
    assert report.count(": ok (sweep: ") == len(sweeps)


def test_validate_a_bad_study_reports_both_problems():
    # README: tilesim validate tests/app/cli/data/bad_study.yaml
    with pytest.raises(tilesim.InputError) as raised:
        tilesim.validate("tests/app/cli/data/bad_study.yaml")
    assert [(p.line, p.column) for p in raised.value.problems] == [(5, 15), (8, 5)]
    assert raised.value.exit_status == 1


def test_validate_with_a_raised_budget():
    # docs/limits.md: --max-events 1e8 raises the budget
    path = "tests/bad_inputs/study/over_budget_layer_batch.yaml"
    with pytest.raises(tilesim.InputError, match="above the budget"):
        tilesim.validate(path)
    assert "ok" in tilesim.validate(path, max_events=1e8)


def test_schema_is_docs_config_md():
    # docs/config.md: tilesim schema > docs/config.md
    assert tilesim.schema() == pathlib.Path("docs/config.md").read_text(encoding="utf-8")


def test_version_is_the_commands():
    # README: tilesim --version
    assert tilesim.version() == cli("--version").strip()


# --- tilesim sweep ----------------------------------------------------------------

def test_sweep_svg_csv_and_html_as_the_command_writes_them(tmp_path):
    # docs/sweeps.md: tilesim sweep configs/sweeps/stream_k_vs_m.yaml --svg stream_k_vs_m.svg
    # README: tilesim sweep SWEEP.yaml [--csv PATH|-] [--svg PATH] [--html PATH] [-j N]
    sweep = "configs/sweeps/stream_k_vs_m.yaml"
    rows = tilesim.sweep(sweep, jobs=2, csv=tmp_path / "py.csv", svg=tmp_path / "py.svg",
                         html=tmp_path / "py.html")
    cli("sweep", sweep, "--csv", tmp_path / "sh.csv", "--svg", tmp_path / "sh.svg",
        "--html", tmp_path / "sh.html")
    for kind in ("csv", "svg", "html"):
        assert same_bytes(tmp_path / f"py.{kind}", tmp_path / f"sh.{kind}"), kind
    assert same_bytes(tmp_path / "py.csv", GOLDEN / "sweep_stream_k_vs_m.csv")
    assert len(rows) == len((GOLDEN / "sweep_stream_k_vs_m.csv").read_text().splitlines()) - 1


@pytest.mark.parametrize("sweep", sorted(pathlib.Path("configs/sweeps").glob("*.yaml")),
                         ids=lambda path: path.stem)
def test_sweep_every_shipped_sweep_gives_its_golden_rows(sweep):
    # docs/attention.md: tilesim sweep configs/sweeps/decode_attention_vs_context.yaml
    # docs/graphs.md: tilesim sweep configs/sweeps/decode_layer_launch.yaml
    rows = tilesim.sweep(sweep.as_posix(), jobs=2)
    golden = pandas.read_csv(GOLDEN / f"sweep_{sweep.stem}.csv", keep_default_na=False,
                             float_precision="round_trip")
    frame = pandas.DataFrame(rows)
    assert list(frame.columns) == list(golden.columns)
    assert frame["time_us"].tolist() == golden["time_us"].tolist()


def test_sweep_stopped_and_resumed_ends_with_the_bytes_of_one_run(tmp_path):
    # docs/sweeps.md: tilesim sweep big.yaml --csv big.csv --svg big.svg [--stop-after N] [--resume]
    sweep, csv = "configs/sweeps/l2_capacity.yaml", tmp_path / "l2.csv"
    with pytest.raises(tilesim.Stopped) as stopped:
        tilesim.sweep(sweep, csv=csv, stop_after=5)
    assert stopped.value.exit_status == 130
    assert "--resume" in str(stopped.value)
    assert not csv.exists() and (tmp_path / "l2.csv.partial").exists()
    rows = tilesim.sweep(sweep, csv=csv, resume=True, jobs=2)
    assert same_bytes(csv, GOLDEN / "sweep_l2_capacity.csv")
    assert len(rows) == len(csv.read_text().splitlines()) - 1


def test_sweep_shards_merged_give_the_bytes_of_one_run(tmp_path):
    # docs/sweeps.md: --shard {}/4 --csv stream_k_vs_m.shard{}.csv, then --merge stream_k_vs_m.shard*.csv
    sweep = "configs/sweeps/stream_k_vs_m.yaml"
    shards = []
    for index in range(4):
        shards.append(tmp_path / f"shard{index}.csv")
        rows = tilesim.sweep(sweep, shard=(index, 4), csv=shards[-1])
        assert all(row["job"] % 4 == index for row in rows)
    one_run = tilesim.sweep(sweep, svg=tmp_path / "one.svg")
    merged = tilesim.merge_sweep(sweep, reversed(shards), csv=tmp_path / "merged.csv",
                                 svg=tmp_path / "merged.svg")
    assert merged == one_run
    assert same_bytes(tmp_path / "merged.csv", GOLDEN / "sweep_stream_k_vs_m.csv")
    assert same_bytes(tmp_path / "merged.svg", tmp_path / "one.svg")
    # A shard to stdout, as `tilesim sweep ... --shard 1/4 --csv -`, and read by pandas.
    assert tilesim.sweep(sweep, shard="1/4") == tilesim.sweep(sweep, shard=(1, 4),
                                                              csv=tmp_path / "again.csv")
    frame = pandas.read_csv(shards[1], comment="#")
    assert frame["job"].tolist() == [row["job"] for row in tilesim.sweep(sweep, shard=(1, 4))]


def test_merge_refuses_a_missing_shard(tmp_path):
    sweep = "configs/sweeps/stream_k_vs_m.yaml"
    tilesim.sweep(sweep, shard=(0, 2), csv=tmp_path / "shard0.csv")
    with pytest.raises(tilesim.InputError, match="shard 1/2 missing"):
        tilesim.merge_sweep(sweep, [tmp_path / "shard0.csv"])
    with pytest.raises(tilesim.InputError, match="the shard index counts from 0"):
        tilesim.sweep(sweep, shard=(2, 2))


def test_sweep_bad_file_reports_every_problem():
    # docs/sweeps.md: tilesim sweep tests/app/cli/data/bad_sweep.yaml
    with pytest.raises(tilesim.InputError) as raised:
        tilesim.sweep("tests/app/cli/data/bad_sweep.yaml")
    assert [(p.line, p.column) for p in raised.value.problems] == [(7, 10), (8, 12), (8, 34),
                                                                   (10, 24)]
    assert raised.value.problems[0].key == "vary[0].key"


# --- tilesim compare ----------------------------------------------------------------

def test_compare_with_measured_hardware_and_scatter_as_the_command(tmp_path):
    # docs/validation.md: tilesim compare --measured bench/...gemm_dataset.csv --hw configs/hw/h100_sxm.measured.yaml --svg ...
    report = tilesim.compare(GEMM_DATASET, hw=MEASURED_HW, svg=tmp_path / "py.svg",
                             json=tmp_path / "py.json", html=tmp_path / "py.html")
    cli("compare", "--measured", GEMM_DATASET, "--hw", MEASURED_HW, "--svg", tmp_path / "sh.svg",
        "--json", tmp_path / "sh.json", "--html", tmp_path / "sh.html")
    for kind in ("svg", "json", "html"):
        assert same_bytes(tmp_path / f"py.{kind}", tmp_path / f"sh.{kind}"), kind
    assert 0 < report["metrics"]["all"]["mape_percent"] < 20


def test_compare_skips_a_row_over_the_budget_with_a_warning():
    # README, Exit status 4: the row is skipped and named, the others compared.
    measured = "tests/app/cli/data/measured_one_row_over_budget.csv"
    with pytest.warns(UserWarning, match="row: huge skipped: .*--max-events"):
        report = tilesim.compare(measured, hw="h100_sxm")
    assert [row["name"] for row in report["rows"]] == ["sq_1536", "sq_2048"]
    assert [(row["name"], row["line"]) for row in report["skipped"]] == [("huge", 3)]


def test_compare_attention_measurements(tmp_path):
    # docs/validation.md: tilesim compare --measured bench/...attention_validation_sdpa.csv --hw ...
    # The same command on a file of a few GEMM and attention rows (the committed
    # SDPA file takes half a minute; the CLI test compare_attention_sdpa runs it).
    measured = "tests/app/cli/data/measured_mixed.csv"
    report = tilesim.compare(measured, hw="h100_sxm", json=tmp_path / "py.json")
    cli("compare", "--measured", measured, "--hw", "h100_sxm", "--json", tmp_path / "sh.json")
    assert same_bytes(tmp_path / "py.json", tmp_path / "sh.json")
    assert report["attention"]


def test_compare_model_rows_on_each_rows_probed_host_or_the_hardware_files():
    # docs/models.md: tilesim compare --measured bench/...model_forward_llama3b_b.csv [--host-dispatch hardware]
    measured = "bench/measurements/h200_sxm_2026-11-27_model_forward_llama3b_b.csv"
    probed = tilesim.compare(measured)
    one_host = tilesim.compare(measured, host_dispatch="hardware")
    eager = [row for row in probed["rows"] if row["simulated"].endswith(":eager")]
    assert eager and all(row["framework_dispatch_us"] > 0 for row in eager)
    assert len({row["framework_dispatch_us"] for row in eager}) > 1  # the host drifted
    dispatch = [row["framework_dispatch_us"] for row in one_host["rows"]
                if "framework_dispatch_us" in row]
    assert len(dispatch) == len(eager) and dispatch == pytest.approx([8.9] * len(eager))
    graph = [row for row in probed["rows"] if row["simulated"].endswith(":cuda_graph")]
    assert graph and not any("framework_dispatch_us" in row for row in graph)


# --- the docs themselves --------------------------------------------------------------

DOCS = [pathlib.Path("README.md"), *sorted(pathlib.Path("docs").glob("*.md"))]
# The Python function of each command, and the keyword of each option.
FUNCTIONS = {"simulate": tilesim.simulate, "sweep": tilesim.sweep, "compare": tilesim.compare,
             "explain": tilesim.explain, "roofline": tilesim.roofline,
             "hierarchy": tilesim.hierarchy, "validate": tilesim.validate,
             "schema": tilesim.schema}
KEYWORDS = {"-j": "jobs", "--merge": None}  # --merge is the function merge_sweep


def _documented_command_lines():
    for doc in DOCS:
        for line in doc.read_text(encoding="utf-8").splitlines():
            for match in re.finditer(r"\btilesim (--version|[a-z]+)((?: +[^`#]+)?)", line):
                if match[1] in FUNCTIONS or match[1] == "--version":
                    yield doc, match[1], match[2]


def test_every_documented_command_has_a_python_function():
    commands = {command for _, command, _ in _documented_command_lines()}
    assert commands >= {"simulate", "sweep", "compare", "explain", "roofline", "hierarchy",
                        "validate", "schema", "--version"}
    assert "version" in tilesim.__all__


def test_every_documented_option_has_a_python_keyword():
    missing = []
    for doc, command, rest in _documented_command_lines():
        if command == "--version":
            continue
        parameters = inspect.signature(FUNCTIONS[command]).parameters
        for option in re.findall(r"(?<![\w-])(-j|--[a-z][a-z-]*)", rest):
            if option == "--help":
                continue
            keyword = KEYWORDS.get(option, option[2:].replace("-", "_"))
            if option == "--merge":
                continue
            if keyword not in parameters:
                missing.append(f"{doc}: tilesim {command} {option}")
    assert "max_events" in inspect.signature(tilesim.validate).parameters
    assert "shards" in inspect.signature(tilesim.merge_sweep).parameters
    assert not missing, "documented options without a Python keyword:\n" + "\n".join(missing)
