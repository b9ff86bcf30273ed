"""tilesim from Python: the simulator's commands as functions returning dicts.

    import tilesim, pandas
    rows = tilesim.simulate("configs/studies/quickstart.yaml")          # or a dict
    pandas.DataFrame(rows)[["name", "schedule", "time_us", "tflops"]]
    tilesim.simulate(study, hw="h200_sxm", set={"hbm.bandwidth": "4.8 TB/s"})

Every function runs the same code as the `tilesim` command (in-process), so
inputs are checked the same way; a bad input raises `tilesim.InputError` whose
`problems` list each file, line, column, key and message. Each command's
output files are keyword arguments named after its options (`svg=`, `csv=`,
`json=`, `html=`, `trace=`, `timeline=`); `max_events=` is `--max-events`;
`approximate=True` is `--approximate` (simulate, explain, sweep, compare:
docs/model.md, "Approximate mode").
"""

import csv as _csv
import io
import json as _json
import os
import pathlib
import re
import warnings
import tempfile

from . import _tilesim

__all__ = ["InputError", "Problem", "Stopped", "simulate", "explain", "sweep", "merge_sweep",
           "compare", "roofline", "hierarchy", "validate", "schema", "version", "run"]


class Problem:
    """One diagnostic: where (file, line, column), which key, and what is wrong."""

    def __init__(self, file, line, column, key, message):
        self.file, self.line, self.column, self.key, self.message = file, line, column, key, message

    def __repr__(self):
        return f"Problem({self.file}:{self.line}:{self.column}: {self.key}: {self.message})"


class InputError(ValueError):
    """A study, hardware, sweep or measurement input that tilesim refuses."""

    def __init__(self, message, problems, exit_status):
        super().__init__(message)
        self.problems = problems
        self.exit_status = exit_status


class Stopped(RuntimeError):
    """A sweep stopped before its last point (`stop_after=`, or a signal): exit status 130.

    Its finished rows are kept in `csv`'s PATH.partial; `resume=True` continues."""

    def __init__(self, message, exit_status):
        super().__init__(message)
        self.exit_status = exit_status


_EXIT_ROWS_SKIPPED = 4
_EXIT_STOPPED = 130
_DIAGNOSTIC = re.compile(r"^(?P<file>.*?):(?P<line>\d+):(?P<column>\d+): error: (?P<rest>.*)$")


def _problems(stderr, rename):
    found = []
    for text in stderr.splitlines():
        match = _DIAGNOSTIC.match(text)
        if not match:
            continue
        key, _, message = match["rest"].partition(": ")
        found.append(Problem(rename(match["file"]), int(match["line"]), int(match["column"]), key,
                             message))
    return found


def _installed_config_dir():
    # <prefix>/lib/pythonX.Y/dist-packages/tilesim/__init__.py -> <prefix>/share/tilesim/configs
    for parent in pathlib.Path(__file__).resolve().parents:
        candidate = parent / "share" / "tilesim" / "configs"
        if (candidate / "hw").is_dir():
            return str(candidate)
    return None


def run(*arguments, input_names=None):
    """Runs `tilesim <arguments...>`; returns stdout, raises InputError on failure.

    `input_names` maps temporary file paths to the names shown in errors."""
    names = input_names or {}
    environment_set = "TILESIM_CONFIG_DIR" not in os.environ and _installed_config_dir()
    if environment_set:
        os.environ["TILESIM_CONFIG_DIR"] = environment_set
    try:
        status, out, err = _tilesim.run([str(argument) for argument in arguments])
    finally:
        if environment_set:
            del os.environ["TILESIM_CONFIG_DIR"]
    if status == _EXIT_STOPPED:
        raise Stopped(err.strip(), status)
    if status == _EXIT_ROWS_SKIPPED:
        # Measured rows over the cost budget were skipped; the rest is in the result.
        warnings.warn(err.strip(), stacklevel=3)
        return out
    if status != 0:
        for path, name in names.items():
            err = err.replace(path, name)
        raise InputError(err.strip() or f"tilesim exited with status {status}",
                         _problems(err, lambda file: names.get(file, file)), status)
    return out


def _options(hw=None, set=None, max_events=None, approximate=False, **outputs):
    """Command-line options: --hw, --set, --max-events, --approximate and one per
    output path given."""
    options = ["--approximate"] if approximate else []
    for name, path in outputs.items():
        if path is not None:
            options += [f"--{name}", os.fspath(path)]
    if hw is not None:
        options += ["--hw", os.fspath(hw)]
    for key, value in (set or {}).items():
        options += ["--set", f"{key}={value}"]
    if max_events is not None:
        options += ["--max-events", repr(float(max_events))]
    return options


class _InputFile:
    """A path as given, or a dict written as JSON (valid YAML) to a temporary file."""

    def __init__(self, source, what):
        self.source, self.what, self.directory = source, what, None

    def __enter__(self):
        if isinstance(self.source, dict):
            self.directory = tempfile.TemporaryDirectory(prefix="tilesim-")
            path = os.path.join(self.directory.name, f"{self.what}.yaml")
            with open(path, "w", encoding="utf-8") as file:
                _json.dump(self.source, file, indent=1)
            return path, {path: f"<{self.what} dict>"}
        if isinstance(self.source, (str, os.PathLike)):
            return os.fspath(self.source), {}
        raise TypeError(f"{self.what}: expected a path or a dict, got {type(self.source).__name__}")

    def __exit__(self, *exception):
        if self.directory:
            self.directory.cleanup()


def _flatten(item):
    """One level of nested dicts becomes dotted keys, so pandas gets columns."""
    flat = {}
    for key, value in item.items():
        if isinstance(value, dict):
            for inner, inner_value in value.items():
                flat[f"{key}.{inner}"] = inner_value
        else:
            flat[key] = value
    return flat


def _number(text):
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def simulate(study, hw=None, set=None, html=None, json=None, csv=None, trace=None, timeline=None,
             explain=False, max_events=None, approximate=False):
    """Simulates every workload of a study (a YAML path or a dict with its keys).

    Returns one dict per workload run (`tilesim simulate --json`'s `results`,
    nested maps flattened to dotted keys; `kernels` stays a list of dicts).
    `html=`, `json=`, `csv=`, `trace=` and `timeline=` also write those files;
    `explain=True` adds each run's explanation under `explain`."""
    outputs = {"html": html, "csv": csv, "trace": trace, "timeline": timeline}
    with _InputFile(study, "study") as (path, names):
        out = run("simulate", path, "--json", "-", *(["--explain"] if explain else []),
                  *_options(hw, set, max_events, approximate, **outputs), input_names=names)
    if json is not None:
        _write_text(json, out)
    return [_flatten(item) for item in _json.loads(out)["results"]]


def explain(study, hw=None, set=None, json=None, max_events=None, approximate=False):
    """Explains every workload of a study: `tilesim explain --json`'s `explanations`
    (time by cause, roofline position, verdict, re-simulated what-ifs)."""
    with _InputFile(study, "study") as (path, names):
        out = run("explain", path, "--json", "-", *_options(hw, set, max_events, approximate),
                  input_names=names)
    if json is not None:
        _write_text(json, out)
    return _json.loads(out)["explanations"]


def _write_text(path, text):
    with open(path, "w", encoding="utf-8") as file:
        file.write(text)


def _csv_rows(text):
    """CSV rows as dicts with numbers converted; a shard's closing `#` line is left out."""
    lines = [line for line in text.splitlines(keepends=True) if not line.startswith("#")]
    return [{key: _number(value) for key, value in row.items()}
            for row in _csv.DictReader(io.StringIO("".join(lines)))]


def _shard_text(shard):
    if isinstance(shard, str):
        return shard
    index, count = shard
    return f"{index}/{count}"


def sweep(sweep, hw=None, set=None, jobs=1, html=None, svg=None, csv=None, resume=False,
          stop_after=None, shard=None, max_events=None, approximate=False):
    """Runs a sweep (a YAML path or a dict); returns its CSV rows as dicts.

    `csv=PATH` keeps the rows in PATH as they finish, so that `resume=True`
    continues a sweep stopped by `stop_after=N` (which raises `Stopped`).
    `shard=(i, n)` runs only shard i of n (docs/sweeps.md): its rows carry a
    `job` column, and `merge_sweep` joins the files of all n shards."""
    options = ["-j", jobs, "--csv", "-" if csv is None else os.fspath(csv)]
    if resume:
        options.append("--resume")
    if stop_after is not None:
        options += ["--stop-after", stop_after]
    if shard is not None:
        options += ["--shard", _shard_text(shard)]
    with _InputFile(sweep, "sweep") as (path, names):
        out = run("sweep", path, *options,
                  *_options(hw, set, max_events, approximate, html=html, svg=svg),
                  input_names=names)
    if csv is not None:
        with open(csv, encoding="utf-8") as file:
            out = file.read()
    return _csv_rows(out)


def merge_sweep(sweep, shards, hw=None, set=None, html=None, svg=None, csv=None):
    """Joins the CSV files of all shards of a sweep (`sweep(..., shard=(i, n), csv=PATH)`)
    into what one run gives: returns its rows, and writes `csv=`, `svg=`, `html=`
    with the bytes of an unsharded run. Give the sweep, `hw` and `set` of the shards."""
    with _InputFile(sweep, "sweep") as (path, names):
        out = run("sweep", path, "--merge", *[os.fspath(shard) for shard in shards],
                  "--csv", "-" if csv is None else os.fspath(csv),
                  *_options(hw, set, html=html, svg=svg), input_names=names)
    if csv is not None:
        with open(csv, encoding="utf-8") as file:
            out = file.read()
    return _csv_rows(out)


def compare(measured, hw=None, html=None, json=None, svg=None, max_events=None,
            approximate=False, host_dispatch=None):
    """Re-simulates every row of a measurement CSV; returns `tilesim compare --json`.
    `svg=` writes the predicted-vs-measured scatter, `json=` and `html=` those reports.
    Rows over the cost budget are skipped with a warning and listed under `skipped`.
    `host_dispatch=` is `--host-dispatch` ("probe" or "hardware"; model rows)."""
    with tempfile.TemporaryDirectory(prefix="tilesim-") as directory:
        report = os.path.join(directory, "compare.json") if json is None else os.fspath(json)
        dispatch = [] if host_dispatch is None else ["--host-dispatch", host_dispatch]
        run("compare", "--measured", os.fspath(measured), "--json", report, *dispatch,
            *_options(hw, None, max_events, approximate, html=html, svg=svg))
        with open(report, encoding="utf-8") as file:
            return _json.load(file)


def roofline(study, svg, measured=None, hw=None, set=None, max_events=None):
    """Draws the study's workloads (and `measured` rows) on the GPU's roofline into
    `svg`; returns the command's summary ("5 workloads on the h100_sxm roofline")."""
    with _InputFile(study, "study") as (path, names):
        out = run("roofline", path, *_options(hw, set, max_events, svg=svg, measured=measured),
                  input_names=names)
    return out.strip().splitlines()[0].partition(": ")[2]


def hierarchy(hw=None, set=None, svg=None):
    """The memory hierarchy of a hardware file (default h100_sxm): capacity,
    bandwidth and latency per level, as the table `tilesim hierarchy` prints;
    `svg=` also draws it."""
    return run("hierarchy", *_options(hw, set, svg=svg))


def validate(*paths, max_events=None):
    """Checks hardware, study or sweep YAML files; raises InputError listing every problem.
    Returns the command's report, a line per file ("...: ok (study: 5 workloads on h100_sxm)")."""
    return run("validate", *[os.fspath(path) for path in paths], *_options(max_events=max_events))


def schema():
    """The reference of every hardware, study and sweep key, in Markdown (docs/config.md)."""
    return run("schema")


def version():
    """`tilesim --version`: the version and git describe of the build."""
    return run("--version").strip()
