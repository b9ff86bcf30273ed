// Writes the bad inputs that are too large or not text enough to commit: a
// 10 MB line (over the 4 MiB a config file may hold), a 3 MB value (under
// it), NUL bytes, malformed UTF-8, a byte-order mark, CRLF line ends.
// Each is a hardware, study, sweep or measurement file with one problem that
// must be reported at its line and column (see expected.txt).
//
//   generate_bad_inputs OUTPUT_DIR

#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

namespace {

using namespace std::string_literals;

const std::string kStudyHead = "hardware: h100_sxm\nworkloads:\n";
const std::string kGemm = "  - name: g\n    gemm: {m: 1024, n: 1024, k: 1024, dtype: bf16}\n";
const std::string kCsvHeader = "name,kernel,schedule,m,n,k,dtype,time_us\n";
const std::string kCsvRow = "sq,library,data_parallel,1024,1024,1024,bf16,12.5\n";
const std::string kSweep =
    "hardware: h100_sxm\nworkload: {gemm: {m: 1536, n: 1536, k: 1536, dtype: bf16}}\nvary:\n";

std::string crlf(const std::string& text) {
  std::string out;
  for (const char c : text) {
    if (c == '\n') out += '\r';
    out += c;
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: generate_bad_inputs OUTPUT_DIR\n";
    return 2;
  }
  const std::filesystem::path root = argv[1];
  const std::string ten_mb(10 * 1024 * 1024, '7');
  const std::string three_mb(3 * 1024 * 1024, '7');
  const std::string files[][2] = {
      // A 10 MB number where gemm.m goes, and a 10 MB name.
      {"study/ten_mb_line.yaml", kStudyHead + "  - name: g\n    gemm: {m: " + ten_mb +
                                     ", n: 1024, k: 1024, dtype: bf16}\n"},
      {"study/ten_mb_name.yaml", kStudyHead + "  - name: \"" + std::string(ten_mb.size(), 'a') +
                                     " b\"\n    gemm: {m: 1024, n: 1024, k: 1024, dtype: bf16}\n"},
      {"sweep/ten_mb_value.yaml", kSweep + "  - key: gemm.m\n    values: [128, " + ten_mb + "]\n"},
      {"study/three_mb_value.yaml", kStudyHead + "  - name: g\n    gemm: {m: " + three_mb +
                                        ", n: 1024, k: 1024, dtype: bf16}\n"},
      {"sweep/three_mb_value.yaml", kSweep + "  - key: gemm.m\n    values: [128, " + three_mb + "]\n"},
      {"measured/three_mb_field.csv", kCsvHeader + "sq,library,data_parallel," + three_mb +
                                          ",1024,1024,bf16,12.5\n"},
      {"measured/ten_mb_field.csv", kCsvHeader + "sq,library,data_parallel," + ten_mb +
                                        ",1024,1024,bf16,12.5\n"},
      // NUL bytes: a binary file, or a text file cut with one.
      {"hardware/nul_bytes.yaml", "name: h100_sxm\nsm:\n  count: 13\0"s "2\n"},
      {"study/nul_bytes.yaml", kStudyHead + "  - name: g\0\n"s + kGemm},
      {"sweep/nul_bytes.yaml", kSweep + "  - key: gemm.m\n    values: [128,\0 256]\n"s},
      {"measured/nul_bytes.csv",
       kCsvHeader + "sq,library,data_parallel,1024,10\0"s "24,1024,bf16,12.5\n"},
      // Latin-1 bytes that are not UTF-8.
      {"study/latin1_name.yaml", kStudyHead + "  - name: g\xe9mm\n    gemm: {m: 1, n: 1, k: 1, dtype: bf16}\n"},
      {"measured/latin1_name.csv", kCsvHeader + "sq\xe9,library,data_parallel,1024,1024,1024,bf16,12.5\n"},
      // A byte-order mark is allowed; the problem after it is reported at its own column.
      {"study/bom_then_bad_value.yaml", "\xEF\xBB\xBF" + kStudyHead + "  - name: g\n    gemm: {m: 0, n: 1, k: 1, dtype: bf16}\n"},
      {"measured/bom_then_bad_value.csv", "\xEF\xBB\xBF" + kCsvHeader + "sq,library,data_parallel,0,1024,1024,bf16,12.5\n"},
      // CRLF line ends: lines and columns as in an editor.
      {"hardware/crlf_bad_value.yaml", crlf("name: h100_sxm\nsm:\n  count: -1\n")},
      {"study/crlf_bad_value.yaml", crlf(kStudyHead + "  - name: g\n    gemm: {m: 1, n: 1, k: 1, dtype: fp64}\n")},
      {"sweep/crlf_bad_value.yaml", crlf(kSweep + "  - key: gemm.m\n    values: [128, 0]\n")},
      {"measured/crlf_bad_value.csv", crlf(kCsvHeader + kCsvRow + "sq2,library,data_parallel,1024,0,1024,bf16,12.5\n")},
  };
  for (const auto& [name, text] : files) {
    const std::filesystem::path path = root / name;
    std::filesystem::create_directories(path.parent_path());
    std::ofstream file(path, std::ios::binary | std::ios::trunc);
    file << text;
    if (!file) {
      std::cerr << "cannot write " << path << "\n";
      return 1;
    }
  }
  return 0;
}
