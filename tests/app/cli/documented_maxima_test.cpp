// Every key of docs/config.md at its documented maximum, the others at small
// values, run through `tilesim simulate` in a child process: it must predict
// (exit 0) or refuse cleanly (exit 1, file:line:col on stderr), within 10 s and
// 2 GiB, whatever the key. Time is the child's CPU time per thread it runs, not
// wall time: a loaded build machine stretches wall time, not the work. The keys and maxima are read
// from the reference itself, so a new key is covered as soon as it is declared. A sweep with as
// many simulations as the default budget allows is checked the same way.

#include <fcntl.h>
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <yaml-cpp/yaml.h>

#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

extern char** environ;

namespace tilesim {
namespace {

// The budget of docs/limits.md, scaled in a sanitized build (tests/CMakeLists.txt).
constexpr double kMaxSeconds = 10.0 * TILESIM_TEST_TIME_SCALE;
constexpr long kMaxResidentKib = (2L << 20) * TILESIM_TEST_MEMORY_SCALE;  // 2 GiB

// A key of the reference at its maximum, and the input it goes into.
struct MaxKey {
  std::string section;  // "hardware", "kernel", "gemm", "attention", "graph_kernel", "layer"
  std::string key;      // inside the base map: "sm.count", "tile.m", "rows", ...
  std::string value;    // the documented maximum, as written: "1024", "100 TB/s"
  std::string name;     // the test's name
};

// For gtest's test listing.
void PrintTo(const MaxKey& max, std::ostream* out) {
  *out << max.key << " = " << max.value;
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The section of docs/config.md a table row is in, as a base input; empty for
// sections without bounded keys to try (study and sweep files).
std::string section_of(const std::string& heading) {
  if (heading.starts_with("## Hardware file")) return "hardware";
  if (heading.starts_with("## Kernel profile file")) return "kernel";
  if (heading.starts_with("## Workloads")) return "gemm";
  if (heading.starts_with("## Attention workloads")) return "attention";
  if (heading.starts_with("## Kernels of a graph")) return "graph_kernel";
  if (heading.starts_with("## Decoder layer preset")) return "layer";
  return "";
}

// "1 to 1024", "16 to 512, multiple of 16", "10 GB/s to 100 TB/s", "> 0 and <= 1".
std::optional<std::string> maximum_of(const std::string& allowed) {
  static const std::regex kTo(R"(^.* to ([^,]+)(,.*)?$)");
  static const std::regex kAtMost(R"(^.*<= (.+)$)");
  std::smatch match;
  if (std::regex_match(allowed, match, kTo) || std::regex_match(allowed, match, kAtMost)) {
    return match[1].str();
  }
  return std::nullopt;
}

std::vector<MaxKey> documented_maxima() {
  std::vector<MaxKey> keys;
  std::istringstream reference(
      read_text(std::filesystem::path(TILESIM_SOURCE_DIR) / "docs" / "config.md"));
  std::string section;
  static const std::regex kRow(R"(^\| `([^`]+)` \| [^|]* \| [^|]* \| ([^|]*) \|.*$)");
  for (std::string line; std::getline(reference, line);) {
    if (line.starts_with("## ")) section = section_of(line);
    std::smatch row;
    if (section.empty() || !std::regex_match(line, row, kRow)) continue;
    const std::optional<std::string> maximum = maximum_of(row[2].str());
    if (!maximum) continue;
    std::string key = row[1].str();
    for (const std::string prefix :
         {"kernels.<name>.", "workloads[].graph.kernels[].", "workloads[].attention.",
          "workloads[].layer.", "workloads[]."}) {
      if (key.starts_with(prefix)) {
        key = key.substr(prefix.size());
        break;
      }
    }
    const std::vector<std::string> ops =
        section != "graph_kernel" ? std::vector<std::string>{""}
        : key == "rows" || key == "cols"
            ? std::vector<std::string>{"elementwise", "rmsnorm", "softmax"}
        : key == "m" || key == "n" || key == "k" ? std::vector<std::string>{"gemm"}
        : key == "stream" || key == "repeat"     ? std::vector<std::string>{"elementwise"}
                                                 : std::vector<std::string>{"attention"};
    for (const std::string& op : ops) {
      std::string name = section + (op.empty() ? "" : "_" + op) + "_" + key;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      keys.push_back({section + (op.empty() ? "" : ":" + op), key, *maximum, name});
    }
  }
  return keys;
}

void set_path(YAML::Node node, const std::string& path, const std::string& value) {
  const std::size_t dot = path.find('.');
  if (dot == std::string::npos) {
    node[path] = value;
    return;
  }
  YAML::Node child = node[path.substr(0, dot)];
  if (!child.IsMap()) child = YAML::Node(YAML::NodeType::Map);
  set_path(child, path.substr(dot + 1), value);
  node[path.substr(0, dot)] = child;
}

std::string emitted(const YAML::Node& node) {
  YAML::Emitter out;
  out << node;
  return std::string(out.c_str()) + "\n";
}

// A small workload of each kind; the key under test is set inside it.
YAML::Node base_workload(const std::string& section) {
  if (section == "gemm")
    return YAML::Load("{name: w, gemm: {m: 256, n: 256, k: 256, dtype: bf16}}");
  if (section == "attention") {
    return YAML::Load(
        "{name: w, attention: {batch: 1, heads: 8, kv_heads: 8, q_len: 1, kv_len: 256, "
        "head_dim: 64}}");
  }
  if (section == "layer") return YAML::Load("{name: w, layer: {phase: decode, context: 256}}");
  const std::string op = section.substr(section.find(':') + 1);
  const std::string kernel =
      op == "gemm"        ? "{name: a, op: gemm, m: 256, n: 256, k: 256}"
      : op == "attention" ? "{name: a, op: attention, heads: 8, kv_heads: 8, q_len: 1, kv_len: 256}"
                          : fmt::format("{{name: a, op: {}, cols: 256}}", op);
  return YAML::Load(fmt::format("{{name: w, graph: {{kernels: [{}]}}}}", kernel));
}

// Keys that only act with a schedule or variant set them to one that uses them.
void use_key(YAML::Node workload, const std::string& section, const std::string& key) {
  if (section == "gemm" && key == "splits") workload["schedule"] = "split_k";
  if (section == "attention" && key == "splits") workload["variant"] = "flash_decoding";
  if (section == "attention" && key == "page_size") workload["variant"] = "paged_v2";
  if (section == "layer" && key == "tokens") {
    workload["layer"]["phase"] = "prefill";
    workload["layer"].remove("context");
  }
}

struct ChildRun {
  int status = -1;         // exit status, or -1 when killed by a signal
  double seconds = 0;      // wall time
  double cpu_seconds = 0;  // user + system
  long resident_kib = 0;
  std::string stderr_text;
};

ChildRun run_tilesim(const std::vector<std::string>& arguments, const std::filesystem::path& dir) {
  std::vector<std::string> all = {TILESIM_BINARY};
  all.insert(all.end(), arguments.begin(), arguments.end());
  std::vector<char*> argv;
  for (std::string& argument : all) argv.push_back(argument.data());
  argv.push_back(nullptr);
  const std::string out = (dir / "stdout.txt").string();
  const std::string err = (dir / "stderr.txt").string();
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ChildRun run;
  const auto start = std::chrono::steady_clock::now();
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) return run;
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                    static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  run.resident_kib = usage.ru_maxrss;
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  run.stderr_text = read_text(err);
  return run;
}

// A prediction, or a refusal naming a file with line and column (the input, or
// a kernel profile the hardware offers) or the --set override.
// `threads`: how many the command runs (a sweep's -j), so that the bound is
// the wall time of an idle machine with that many cores.
void expect_prediction_or_clean_refusal(const ChildRun& run, int threads = 1) {
  EXPECT_TRUE(run.status == 0 || run.status == 1) << "exit status " << run.status << "\n"
                                                  << run.stderr_text;
  if (run.status == 1) {
    // A file's problem names its line and column; an override's is "--set: error:".
    const std::regex located_problem(R"((:[1-9][0-9]*:[1-9][0-9]*|^--set|\n--set): error: )");
    EXPECT_TRUE(std::regex_search(run.stderr_text, located_problem)) << run.stderr_text;
    EXPECT_EQ(run.stderr_text.find("internal error"), std::string::npos) << run.stderr_text;
  }
  EXPECT_LT(run.cpu_seconds / threads, kMaxSeconds);
  EXPECT_LT(run.resident_kib, kMaxResidentKib);
  std::cout << fmt::format("{}: {:.2f} s of CPU ({:.2f} s wall), {} MiB\n{}",
                           run.status == 0 ? "predicted" : "refused", run.cpu_seconds, run.seconds,
                           run.resident_kib / 1024, run.stderr_text.substr(0, 400));
}

std::filesystem::path case_dir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::path(TILESIM_TEST_OUTPUT_DIR) / "maxima" / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

class DocumentedMaximum : public ::testing::TestWithParam<MaxKey> {};

TEST_P(DocumentedMaximum, PredictsOrRefusesWithinTenSecondsAndTwoGiB) {
  const MaxKey& max = GetParam();
  const std::filesystem::path dir = case_dir(max.name);
  const std::filesystem::path study_path = dir / "study.yaml";
  YAML::Node study = YAML::Load("{hardware: h100_sxm}");
  YAML::Node workloads(YAML::NodeType::Sequence);
  std::vector<std::string> arguments = {"simulate", study_path.string(), "--json",
                                        (dir / "out.json").string()};
  if (max.section == "hardware" || max.section == "kernel") {
    if (max.section == "hardware") {
      YAML::Node hardware = YAML::LoadFile(
          (std::filesystem::path(TILESIM_CONFIG_DIR) / "hw" / "h100_sxm.yaml").string());
      set_path(hardware, max.key, max.value);
      const std::filesystem::path hardware_path = dir / "hardware.yaml";
      std::ofstream(hardware_path) << emitted(hardware);
      study["hardware"] = hardware_path.string();
    } else {
      // A kernel profile's key, set on the profile h100_sxm offers as `library`.
      arguments.push_back("--set");
      arguments.push_back("kernels.library." + max.key + "=" + max.value);
    }
    for (const char* kind : {"gemm", "attention", "layer"}) {
      YAML::Node workload = base_workload(kind);
      workload["name"] = kind;
      workloads.push_back(workload);
    }
  } else {
    YAML::Node workload = base_workload(max.section);
    const std::string section = max.section.substr(0, max.section.find(':'));
    // Attention and layer keys live in their map; splits and tile keys beside it.
    const std::string inside = section == "attention" ? "attention."
                               : section == "layer"   ? "layer."
                                                      : "";
    if (section == "graph_kernel") {
      YAML::Node kernel = workload["graph"]["kernels"][0];
      set_path(kernel, max.key, max.value);
    } else {
      const bool top_level = max.key == "splits" || max.key.starts_with("tile.");
      set_path(workload, top_level ? max.key : inside + max.key, max.value);
      use_key(workload, section, max.key);
    }
    workloads.push_back(workload);
  }
  study["workloads"] = workloads;
  std::ofstream(study_path) << emitted(study);
  const ChildRun run = run_tilesim(arguments, dir);
  std::cout << max.key << " = " << max.value << ": ";
  expect_prediction_or_clean_refusal(run);
}

INSTANTIATE_TEST_SUITE_P(EveryKey, DocumentedMaximum, ::testing::ValuesIn(documented_maxima()),
                         [](const ::testing::TestParamInfo<MaxKey>& param) {
                           return param.param.name;
                         });

TEST(DocumentedMaxima, CoverEveryBoundedKeyOfEveryWorkloadKind) {
  std::set<std::string> sections;
  for (const MaxKey& key : documented_maxima())
    sections.insert(key.section.substr(0, key.section.find(':')));
  EXPECT_EQ(sections, (std::set<std::string>{"hardware", "kernel", "gemm", "attention",
                                             "graph_kernel", "layer"}));
  EXPECT_GT(documented_maxima().size(), 60u);
}

// Nearly as many small simulations as the default budget lets a sweep run
// (about 810 events each, its checks included): checking and simulating them
// all fits the same bounds, and the sweep is not refused.
TEST(DocumentedMaxima, TheLargestSweepTheBudgetAllows) {
  const std::filesystem::path dir = case_dir("largest_sweep");
  const std::filesystem::path path = dir / "sweep.yaml";
  std::ofstream(path) << "hardware: h100_sxm\n"
                         "workload: {gemm: {m: 16, n: 16, k: 16, dtype: bf16}}\n"
                         "vary:\n"
                         "  - key: gemm.k\n    range: {from: 16, to: 17600, step: 16}\n"
                         "  - key: gemm.n\n    range: {from: 16, to: 160, step: 16}\n";
  const ChildRun run =
      run_tilesim({"sweep", path.string(), "-j", "2", "--csv", (dir / "sweep.csv").string()}, dir);
  std::cout << "11000-point sweep: ";
  expect_prediction_or_clean_refusal(run, 2);
  EXPECT_EQ(run.status, 0) << run.stderr_text;
}

}  // namespace
}  // namespace tilesim
