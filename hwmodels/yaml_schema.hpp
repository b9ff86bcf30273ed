#pragma once
// Declared keys for a YAML map, and a reader that checks a map against them.
//
// Every parameter is declared once -- key path, value type and unit, required or
// default, plausible range, one-line doc -- and both validation and the generated
// reference (docs/config.md) come from that declaration, so the two cannot drift
// (the SST-core habit). A Schema<T> also binds each parameter to the field of T it
// fills, so a loader is a list of declarations plus the checks that span fields.
//
// The reader reports every problem it finds (unknown keys with a suggestion,
// missing keys, wrong YAML types, malformed or out-of-range values) as a
// Diagnostic with file:line:col and the full key path, and never throws.

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "hwmodels/diagnostics.hpp"
#include "hwmodels/quantity.hpp"

namespace tilesim::config {

enum class ValueType {
  integer,   // 132
  number,    // 0.92 or 3.09/3.35, unitless
  text,      // any string
  choice,    // one of a fixed list
  quantity,  // a number with a unit of one QuantityKind
  entries,   // a map of named entries, each read by the caller with its own schema
  sequence,  // a list, each item read by the caller with its own schema
};

struct Bound {
  double value = 0;
  bool inclusive = true;
  std::string text;  // as declared ("10 GB/s"), for messages and docs
};

// One declared parameter. Build with the factories and chain the modifiers:
//   Param::quantity("hbm.bandwidth", QuantityKind::bandwidth)
//       .range("10 GB/s", "100 TB/s").doc("Peak DRAM bandwidth.")
struct Param {
  std::string key;  // dotted path inside the map being read: "shared_memory.capacity"
  ValueType type = ValueType::text;
  QuantityKind quantity_kind = QuantityKind::size;
  bool required = true;
  std::optional<std::string> default_value;  // YAML text used when the key is absent
  std::string computed_default;              // docs: a default the loader derives
  std::optional<Bound> low;
  std::optional<Bound> high;
  std::int64_t step = 0;  // integers: must be a multiple of this (0: any)
  std::vector<std::string> choices;
  bool identifier = false;  // text: letters, digits, '_', '-', '.' only
  bool sets_clock = false;  // per-clock units later in the same map convert with this
  bool non_empty = false;   // entries / sequence: at least one item
  // A value, or a map from GPU keys (an architecture such as `sm90`, or a
  // hardware name) to values: ReadContext::gpu_keys picks the entry.
  bool varies_by_gpu = false;
  std::string doc;

  static Param integer(std::string key);
  static Param number(std::string key);
  static Param text(std::string key);
  static Param choice(std::string key, std::vector<std::string> choices);
  static Param quantity(std::string key, QuantityKind kind);
  static Param entries(std::string key);
  static Param sequence(std::string key);

  Param& range(double low_inclusive, double high_inclusive);
  Param& range(std::string_view low_inclusive, std::string_view high_inclusive);  // quantities
  Param& greater_than(double low_exclusive);
  Param& at_most(double high_inclusive);
  Param& multiple_of(std::int64_t step_value);
  Param& optional();  // absent: the field keeps its value (clears any default)
  Param& default_to(std::string yaml_text);
  Param& default_computed(std::string description);  // optional; the loader fills it in
  Param& name_like();
  Param& clock();
  Param& not_empty();
  Param& by_gpu();
  Param& describe(std::string one_line_doc);
  // The same declaration under another key, to share one declaration between maps.
  Param keyed(std::string new_key) const;
};

// A value read for a parameter: as written, parsed, and where it was.
struct Value {
  std::int64_t integer = 0;
  double number = 0;  // unitless number, integer, or quantity in SI units
  std::string text;   // the scalar as written
  YAML::Node node;    // entries / sequence: the node, for the caller to read
  SourceLocation where;
  bool defaulted = false;  // from default_value; `where` is then the enclosing map
};

// Values by Param::key, for the parameters present or defaulted.
using Values = std::map<std::string, Value>;

struct ReadContext {
  std::string file;
  std::string key_prefix;          // prepended to key paths in messages: "workloads[2]"
  std::optional<double> clock_hz;  // for per-clock units, if no parameter sets it
  // For parameters that vary by GPU and are given as a map: the keys to look
  // for, best first (the hardware's name, then its architecture). Empty: every
  // entry is checked and none is stored (a file checked on its own).
  std::vector<std::string> gpu_keys;
};

// 1-based position of a yaml-cpp mark. Nodes without a position were made by a
// command-line override, so they are attributed to "--set".
SourceLocation location_of(const YAML::Mark& mark, const std::string& file);
std::string join_keys(std::string_view prefix, std::string_view key);
// A node for "got ..." in messages: a quoted scalar (see quoted), "a list",
// "a map" or "nothing".
std::string describe_node(const YAML::Node& node);
// Letters, digits, '_', '-', '.' only, and not empty: names other files refer to.
bool is_name_like(std::string_view text);
// "unknown key `bandwdth`; did you mean `bandwidth`? allowed keys: capacity, ..."
std::string unknown_key_message(std::string_view key, std::span<const std::string> allowed);
// "an integer from 1 to 1024", "a bandwidth from 10 GB/s to 100 TB/s, e.g. ..."
std::string expected_text(const Param& param);
// "1 to 1024", "> 0 and <= 1", "" when unbounded.
std::string range_text(const Param& param);

// Checks `map` against `params`: unknown keys, wrong YAML types, missing required
// keys, malformed and out-of-range values. Returns the values that are valid.
Values read_map(const YAML::Node& map, std::span<const Param> params, const ReadContext& context,
                Diagnostics& diagnostics);

// Follows a dotted path ("hbm.bandwidth") through the declared keys, as for a
// `--set` override. Stops at the first parameter on the path; `rest` is what lies
// beyond it (inside an entries or sequence value). `error` says why no parameter
// was reached: an unknown segment (with a suggestion) or a path that ends at a map.
struct KeyPathMatch {
  const Param* param = nullptr;
  std::string rest;
  std::string error;
};
KeyPathMatch match_key_path(std::span<const Param> params, std::string_view key_path);

template <typename T>
using Assign = std::function<void(T&, const Value&)>;

// Declarations for a map that fills a T.
template <typename T>
class Schema {
 public:
  // `assign` stores a present or defaulted value; empty for entries and sequences,
  // which the caller reads itself.
  Schema& add(Param param, Assign<T> assign = {}) {
    params_.push_back(std::move(param));
    assigns_.push_back(std::move(assign));
    return *this;
  }
  const std::vector<Param>& params() const& { return params_; }
  // By value from a temporary, so `for (auto& p : hardware_schema().params())` is safe.
  std::vector<Param> params() && { return std::move(params_); }

  Values read(const YAML::Node& map, const ReadContext& context, T& target,
              Diagnostics& diagnostics) const {
    Values values = read_map(map, params_, context, diagnostics);
    for (std::size_t i = 0; i < params_.size(); ++i) {
      const auto found = values.find(params_[i].key);
      if (assigns_[i] && found != values.end()) {
        assigns_[i](target, found->second);
      }
    }
    return values;
  }

 private:
  std::vector<Param> params_;
  std::vector<Assign<T>> assigns_;
};

// Assign to a (nested) member: into(&HardwareSpec::sm, &SmSpec::count).
namespace detail {
template <typename Object>
Object& member_ref(Object& object) {
  return object;
}
template <typename Object, typename Member, typename... Rest>
auto& member_ref(Object& object, Member Object::*member, Rest... rest) {
  return member_ref(object.*member, rest...);
}
// Ranges are checked before assignment, so narrowing to int cannot overflow.
inline void store(int& out, const Value& value) {
  out = static_cast<int>(value.integer);
}
inline void store(std::int64_t& out, const Value& value) {
  out = value.integer;
}
inline void store(double& out, const Value& value) {
  out = value.number;
}
inline void store(std::string& out, const Value& value) {
  out = value.text;
}
inline void store(std::optional<int>& out, const Value& value) {
  out = static_cast<int>(value.integer);
}
}  // namespace detail

template <typename T, typename Member, typename... Rest>
Assign<T> into(Member T::*first, Rest... rest) {
  return [=](T& target, const Value& value) {
    detail::store(detail::member_ref(target, first, rest...), value);
  };
}

}  // namespace tilesim::config
