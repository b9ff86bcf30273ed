#include "hwmodels/schema_markdown.hpp"

#include <fmt/format.h>

#include <array>

namespace tilesim::config {

namespace {

constexpr std::string_view kIntroduction = R"(# Configuration reference

Generated from the parameter declarations in `hwmodels/hardware_schema.cpp` and
`workloads/study_loader.cpp`, which also drive validation; do not edit by hand.
Regenerate with `tilesim schema > docs/config.md`.

## Values with units

A quantity is a number and a unit, with or without a space: `"3.35 TB/s"`,
`228KiB`. KB, MB, GB and TB are powers of 1000; KiB, MiB, GiB and TiB powers of
1024. Per-clock units (`flop/clk`, `B/clk`, `op/clk`, and `clk` for a time) count
per SM clock cycle and are converted with `sm.clock` of the same file. A plain
number may be written as a fraction: `efficiency: 3.09/3.35`. Every numeric
parameter has a plausible range, so a wrong unit or a slipped digit is caught.

)";

constexpr std::string_view kErrorsAndOverrides = R"(
## Errors

Every problem in a file is reported, in file order, one per line, as
`file:line:column: error: key.path: message` (1-based line and column). For a
copy of `h100_sxm.yaml` with two typos:

```
h100_sxm.yaml:12:3: error: sm.clock: missing required key; expected a frequency from 100 MHz to 10 GHz, e.g. "1980 MHz" (SM clock under load; per-clock values (flop/clk, B/clk, clk) use it)
h100_sxm.yaml:13:3: error: sm.clokc: unknown key `clokc`; did you mean `clock`? allowed keys: count, clock, tensor, fp32, sfu, shared_memory, registers, register_allocation_unit, max_registers_per_thread, max_threads, max_ctas, max_threads_per_cta, l2_port_bandwidth
h100_sxm.yaml:39:14: error: hbm.bandwidth: unknown unit "TB/sec" in "3.35 TB/sec"; did you mean "TB/s"? allowed units: B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, B/clk
```

## Overrides: `--set`

`--set key.path=value` replaces one value of the hardware file before it is
checked, so an override is validated exactly like a value in the file:
`--set hbm.bandwidth="4.8 TB/s"`, `--set kernels.library.tensor_efficiency=0.85`
(a key of the kernel profile the hardware file offers as `library`).
Problems with an override are reported as `--set: error: key.path: message`.

## Limits

The ranges below keep every value plausible; what a whole study may cost is
bounded too. Inputs whose simulation is estimated to take more than 10 million
engine events (`--max-events`), files over 4 MiB or not UTF-8 text, and YAML
that unfolds to more than a million nodes through aliases are refused with
`file:line:col`: see [limits.md](limits.md) for the budget and its cost model.
)";

constexpr std::array kKinds = {QuantityKind::size,         QuantityKind::time,
                               QuantityKind::frequency,    QuantityKind::bandwidth,
                               QuantityKind::compute_rate, QuantityKind::op_rate};

std::string escape_cell(std::string_view text) {
  std::string escaped;
  for (const char c : text) {
    if (c == '|') {
      escaped += '\\';
    }
    escaped += c;
  }
  return escaped;
}

std::string value_type(const Param& param) {
  switch (param.type) {
    case ValueType::integer:
      return "integer";
    case ValueType::number:
      return "number";
    case ValueType::text:
      return param.identifier ? "name" : "string";
    case ValueType::choice:
      return "name";
    case ValueType::quantity:
      return std::string(kind_name(param.quantity_kind));
    case ValueType::entries:
      return "map";
    case ValueType::sequence:
      return "list";
  }
  return "";
}

std::string value_column(const Param& param) {
  return param.varies_by_gpu ? value_type(param) + ", *per GPU*" : value_type(param);
}

std::string default_column(const Param& param) {
  if (param.required) {
    return "required";
  }
  if (param.default_value) {
    return fmt::format("`{}`", *param.default_value);
  }
  if (!param.computed_default.empty()) {
    return param.computed_default;
  }
  return "optional";
}

std::string allowed_column(const Param& param) {
  std::string allowed = range_text(param);
  if (param.step > 1) {
    allowed += fmt::format(", multiple of {}", param.step);
  }
  if (param.type == ValueType::choice && !param.choices.empty()) {
    allowed = "";
    for (const std::string& choice : param.choices) {
      allowed += fmt::format("{}`{}`", allowed.empty() ? "" : ", ", choice);
    }
  }
  if (param.non_empty) {
    allowed = "not empty";
  }
  return allowed;
}

}  // namespace

std::string render_reference_markdown(std::span<const ReferenceSection> sections) {
  std::string text(kIntroduction);
  text += "| Kind | Units | Example |\n|---|---|---|\n";
  for (const QuantityKind kind : kKinds) {
    text +=
        fmt::format("| {} | {} | `{}` |\n", kind_name(kind), allowed_units(kind), example(kind));
  }
  text += kErrorsAndOverrides;
  for (const ReferenceSection& section : sections) {
    text += fmt::format("\n## {}\n\n{}\n\n", section.title, section.intro);
    text += "| Key | Value | Default | Allowed | Description |\n|---|---|---|---|---|\n";
    for (const Param& param : section.params) {
      text += fmt::format("| `{}{}` | {} | {} | {} | {} |\n", section.key_prefix, param.key,
                          value_column(param), escape_cell(default_column(param)),
                          escape_cell(allowed_column(param)), escape_cell(param.doc));
    }
  }
  return text;
}

}  // namespace tilesim::config
