#!/usr/bin/env python3
"""Checks (and refreshes) the tilesim output quoted in the tutorials.

    tutorial_check.py check  [--tilesim PATH] FILE.md...   # what ctest runs
    tutorial_check.py update [--tilesim PATH] [FILE.md...] # rewrite quotes, numbers, pictures

Run from anywhere; commands run in the repository root. Without FILE.md,
both take every docs/tutorials/[0-9]*.md. What it reads in a tutorial:

* A fenced block whose info string is `console tilesim-check`: its first line
  is `$ tilesim ARGS...`, the command; every other line (except `...` and blank
  lines) is a line the command prints, quoted exactly and in order (an
  excerpt: lines may be left out between them).
* `<!-- run: tilesim ARGS... -->`: a command that is run but not shown.
* `<!-- let NAME: REGEX -->`: NAME is the number captured by REGEX's one group
  in the output of the nearest command above it (block or `run`).
* `NUMBER<!-- = EXPR -->` in prose: the number right before the comment must
  equal EXPR (Python arithmetic over the `let` names) rounded as the prose
  rounds it (`7.3` -> one decimal). `NUMBER<!-- = EXPR ~ 10% -->`: within 10%
  of it, for a number the text calls "about" something.

Output files of a command (`--svg/--timeline/--trace/--html/--json/--csv PATH`)
under docs/ are pictures the tutorial shows: `check` writes them to a
temporary folder and fails when the committed file differs; `update` rewrites
them. Other output paths go to a temporary folder in both modes.

`check` prints one line per difference, `FILE:LINE: ...`, and exits 1.
`update` rewrites quoted lines (matched to the new output by their text with
the numbers blanked), prose numbers (at the prose's precision) and pictures,
and lists every change: reread those sentences, as a claim around a number can
turn false when the number moves.
"""

import argparse
import ast
import filecmp
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

REPOSITORY = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ROOT = REPOSITORY  # where commands run and paths start; --root changes it (the checker's own tests)
NUMBER = r"[-+]?\d[\d,]*(?:\.\d+)?(?:[eE][-+]?\d+)?"
OUTPUT_OPTIONS = {"--svg", "--timeline", "--trace", "--html", "--json", "--csv"}
FENCE_OPEN = re.compile(r"^```console tilesim-check\s*$")
RUN = re.compile(r"<!-- run: (tilesim .*?) -->")
LET = re.compile(r"<!-- let (\w+): (.*?) -->")
INLINE = re.compile(r"(" + NUMBER + r")<!-- = (.*?)(?: ~ (\d+(?:\.\d+)?)%)? -->")


class Problem(Exception):
    pass


class Unfixable(str):
    """A difference `update` cannot rewrite by itself."""


def skeleton(line):
    """A line with its numbers blanked and spaces collapsed: what stays when numbers move."""
    return " ".join(re.sub(NUMBER, "#", line).split())


def parse_number(text):
    return float(text.replace(",", ""))


def format_like(value, template):
    """`value` written as `template` is: its decimals, thousands commas, explicit sign."""
    decimals = len(template.split(".")[1]) if "." in template else 0
    text = f"{value:,.{decimals}f}" if "," in template else f"{value:.{decimals}f}"
    if template.startswith("+") and value >= 0:
        text = "+" + text
    return text


class Runner:
    """Runs tilesim commands once each; keeps their output."""

    def __init__(self, tilesim, update):
        self.tilesim = tilesim
        self.update = update
        self.scratch = tempfile.mkdtemp(prefix="tutorial_check_")
        self.outputs = {}
        self.artifacts = {}  # committed path -> path written by this run

    def run(self, command):
        if command in self.outputs:
            return self.outputs[command]
        words = shlex.split(command)
        if not words or words[0] != "tilesim":
            raise Problem(f"a command must start with `tilesim`: `{command}`")
        argv = [self.tilesim]
        placed = {}  # where an output went -> the path the command names
        for i, word in enumerate(words[1:], start=1):
            if words[i - 1] in OUTPUT_OPTIONS and word != "-":
                written = self.place_output(word)
                placed[written] = word
                word = written
            argv.append(word)
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise Problem(f"`{command}` exited with {done.returncode}:\n{done.stderr}")
        output = done.stdout
        for written, named in placed.items():  # the output names the path the reader typed
            output = output.replace(written, named)
        self.outputs[command] = output
        return output

    def place_output(self, path):
        """Where an output file goes: a picture under docs/ in place (update) or to scratch
        for comparison with its committed copy (check); any other file to scratch."""
        if not path.startswith("docs/"):
            return os.path.join(self.scratch, os.path.basename(path))
        if self.update:
            os.makedirs(os.path.join(ROOT, os.path.dirname(path)), exist_ok=True)
            return path
        written = os.path.join(self.scratch, path.replace("/", "_"))
        self.artifacts[path] = written
        return written

    def close(self):
        shutil.rmtree(self.scratch, ignore_errors=True)


def evaluate(expression, names):
    tree = ast.parse(expression, mode="eval")
    allowed = (ast.Expression, ast.BinOp, ast.UnaryOp, ast.Name, ast.Load, ast.Constant,
               ast.operator, ast.unaryop, ast.Call)
    for node in ast.walk(tree):
        if not isinstance(node, allowed):
            raise Problem(f"`{expression}`: only arithmetic over `let` names is allowed")
        if isinstance(node, ast.Name) and node.id not in names and node.id not in ("abs", "min", "max"):
            raise Problem(f"`{expression}`: no value for `{node.id}` (its `let` is missing, or failed above)")
    return eval(compile(tree, "<check>", "eval"), {"__builtins__": {}, "abs": abs, "min": min, "max": max},
                dict(names))


def check_block(path, command, quoted, output, problems):
    """Quoted lines must appear in the output in order. Returns the rewritten lines."""
    lines = [line.rstrip() for line in output.splitlines()]
    rewritten = []
    position = 0
    for number, line in quoted:
        if line.strip() in ("", "..."):
            rewritten.append(line)
            continue
        exact = next((i for i in range(position, len(lines)) if lines[i] == line.rstrip()), None)
        if exact is not None:
            position = exact + 1
            rewritten.append(line)
            continue
        shape = skeleton(line)
        similar = next((i for i in range(position, len(lines)) if skeleton(lines[i]) == shape), None)
        if similar is None:
            problems.append(Unfixable(f"{path}:{number}: quoted line is not printed by `{command}` "
                            f"(in this order), even with other numbers; edit it by hand:\n"
                            f"    quoted: {line}"))
            rewritten.append(line)
            continue
        position = similar + 1
        old = re.findall(NUMBER, line)
        new = re.findall(NUMBER, lines[similar])
        moved = ", ".join(f"{a} -> {b}" for a, b in zip(old, new) if a != b) or "spacing"
        problems.append(f"{path}:{number}: `{command}` now prints other numbers ({moved}):\n"
                        f"    quoted: {line}\n    now:    {lines[similar]}")
        rewritten.append(lines[similar])
    return rewritten


def process(path, runner, update):
    """Checks one tutorial; in update mode rewrites it. Returns the problems (or changes)."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as source:
        text = source.read().split("\n")
    problems = []
    names = {}
    last = None  # (line, command, output) of the nearest command above
    out = []
    i = 0
    while i < len(text):
        line = text[i]
        if FENCE_OPEN.match(line):
            end = next((j for j in range(i + 1, len(text)) if text[j].startswith("```")), None)
            if end is None or not text[i + 1].startswith("$ tilesim "):
                raise Problem(f"{path}:{i + 1}: a tilesim-check block starts with `$ tilesim ...` "
                              "and ends with ```")
            command = text[i + 1][2:].strip()
            output = runner.run(command)
            quoted = [(j + 1, text[j]) for j in range(i + 2, end)]
            out.extend(text[i:i + 2])
            out.extend(check_block(path, command, quoted, output, problems))
            last = (i + 2, command, output)
            i = end
            continue
        run = RUN.search(line)
        if run:
            last = (i + 1, run.group(1), runner.run(run.group(1)))
        for let in LET.finditer(line):
            name, pattern = let.groups()
            if last is None:
                raise Problem(f"{path}:{i + 1}: `let {name}` has no command above it")
            try:
                found = re.search(pattern, last[2], re.MULTILINE)
            except re.error as error:
                raise Problem(f"{path}:{i + 1}: let {name}: /{pattern}/: {error}") from None
            if not found or found.re.groups != 1:
                problems.append(Unfixable(f"{path}:{i + 1}: let {name}: /{pattern}/ (one group) "
                                          f"matches nothing in the output of `{last[1]}` (line {last[0]})"))
                continue
            names[name] = parse_number(found.group(1))
        out.append(line)
        i += 1

    lines_out = []
    for number, line in enumerate(out, start=1):
        def replace(match):
            shown, expression, tolerance = match.groups()
            try:
                value = evaluate(expression, names)
            except Exception as error:  # a Problem, or arithmetic such as a division by zero
                problems.append(Unfixable(f"{path}:{number}: {error}"))
                return match.group(0)
            expected = format_like(value, shown)
            if tolerance is None:
                ok = expected.lstrip("+") == shown.lstrip("+")
                rule = "as rounded in the text"
            else:
                ok = abs(parse_number(shown) - value) <= float(tolerance) / 100 * abs(value)
                rule = f"within {tolerance}%"
            if ok:
                return match.group(0)
            problems.append(f"{path}:{number}: the text says {shown} but `{expression}` is now "
                            f"{value:.6g} (expected {expected}, {rule})")
            return match.group(0).replace(shown, expected, 1)
        lines_out.append(INLINE.sub(replace, line))

    if update:
        with open(os.path.join(ROOT, path), "w", encoding="utf-8") as target:
            target.write("\n".join(lines_out))
    return problems


def compare_artifacts(runner, problems):
    for committed, written in sorted(runner.artifacts.items()):
        full = os.path.join(ROOT, committed)
        if not os.path.exists(full):
            problems.append(f"{committed}: not committed; run `tutorial_check.py update`")
        elif not filecmp.cmp(full, written, shallow=False):
            problems.append(f"{committed}: differs from what its command writes now; "
                            "run `tutorial_check.py update` and look at it")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("mode", choices=["check", "update"])
    parser.add_argument("files", nargs="*", help="tutorials, relative to the repository root")
    parser.add_argument("--tilesim", default=os.path.join(REPOSITORY, "build", "bin", "tilesim"))
    parser.add_argument("--root", default=REPOSITORY, help=argparse.SUPPRESS)
    args = parser.parse_intermixed_args()
    global ROOT
    ROOT = os.path.abspath(args.root)
    update = args.mode == "update"
    files = args.files or sorted(
        os.path.join("docs", "tutorials", name)
        for name in os.listdir(os.path.join(ROOT, "docs", "tutorials"))
        if name[0].isdigit() and name.endswith(".md"))  # not README.md, which shows the markup
    files = [os.path.relpath(os.path.abspath(f), ROOT) if os.path.isabs(f) else f for f in files]
    runner = Runner(os.path.abspath(args.tilesim), update)
    problems = []
    try:
        for path in files:
            problems.extend(process(path, runner, update))
        if not update:
            compare_artifacts(runner, problems)
    except Problem as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    finally:
        runner.close()
    for problem in problems:
        print(problem)
    if update:
        unfixable = sum(isinstance(problem, Unfixable) for problem in problems)
        print(f"updated {len(files)} file(s): {len(problems) - unfixable} change(s) made, "
              f"{unfixable} left to fix by hand; reread the sentences around changed numbers")
        return 1 if unfixable else 0
    if problems:
        print(f"{len(problems)} difference(s). If the model changed on purpose, run "
              "`cmake --build build --target update_tutorials` (or tutorial_check.py update) "
              "and review the diff.")
        return 1
    print(f"ok: {len(files)} tutorial(s), {len(runner.outputs)} command(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
