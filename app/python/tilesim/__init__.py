"""tilesim from Python: the simulator's commands as functions returning dicts.

    import tilesim, pandas
    rows = tilesim.simulate("configs/studies/quickstart.yaml")          # or a dict
    pandas.DataFrame(rows)[["name", "schedule", "time_us", "tflops"]]
    tilesim.simulate(study, hw="h200_sxm", set={"hbm.bandwidth": "4.8 TB/s"})

Every function runs the same code as the `tilesim` command (in-process), so
inputs are checked the same way; a bad input raises `tilesim.InputError` whose
`problems` list each file, line, column, key and message.
"""

import csv
import io
import json
import os
import pathlib
import re
import tempfile

from . import _tilesim

__all__ = ["InputError", "Problem", "simulate", "explain", "sweep", "compare", "validate",
           "version", "run"]


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
    if status != 0:
        for path, name in names.items():
            err = err.replace(path, name)
        raise InputError(err.strip() or f"tilesim exited with status {status}",
                         _problems(err, lambda file: names.get(file, file)), status)
    return out


def _options(hw, set, html=None):
    options = ["--html", os.fspath(html)] if html is not None else []
    if hw is not None:
        options += ["--hw", str(hw)]
    for key, value in (set or {}).items():
        options += ["--set", f"{key}={value}"]
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
                json.dump(self.source, file, indent=1)
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


def simulate(study, hw=None, set=None, html=None):
    """Simulates every workload of a study (a YAML path or a dict with its keys).

    Returns one dict per workload run (`tilesim simulate --json`'s `results`,
    nested maps flattened to dotted keys; `kernels` stays a list of dicts).
    `html=PATH` also writes the HTML report."""
    with _InputFile(study, "study") as (path, names):
        out = run("simulate", path, "--json", "-", *_options(hw, set, html), input_names=names)
    return [_flatten(item) for item in json.loads(out)["results"]]


def explain(study, hw=None, set=None):
    """Explains every workload of a study: `tilesim explain --json`'s `explanations`
    (time by cause, roofline position, verdict, re-simulated what-ifs)."""
    with _InputFile(study, "study") as (path, names):
        out = run("explain", path, "--json", "-", *_options(hw, set), input_names=names)
    return json.loads(out)["explanations"]


def sweep(sweep, hw=None, set=None, jobs=1, html=None):
    """Runs a sweep (a YAML path or a dict); returns its CSV rows as dicts."""
    with _InputFile(sweep, "sweep") as (path, names):
        out = run("sweep", path, "--csv", "-", "-j", jobs, *_options(hw, set, html),
                  input_names=names)
    return [{key: _number(value) for key, value in row.items()}
            for row in csv.DictReader(io.StringIO(out))]


def compare(measured, hw=None, html=None):
    """Re-simulates every row of a measurement CSV; returns `tilesim compare --json`."""
    with tempfile.TemporaryDirectory(prefix="tilesim-") as directory:
        report = os.path.join(directory, "compare.json")
        options = _options(hw, None, html)
        run("compare", "--measured", os.fspath(measured), "--json", report, *options)
        with open(report, encoding="utf-8") as file:
            return json.load(file)


def validate(*paths):
    """Checks hardware, study or sweep YAML files; raises InputError listing every problem."""
    run("validate", *[os.fspath(path) for path in paths])


def version():
    """`tilesim --version`: the version and git describe of the build."""
    return run("--version").strip()
