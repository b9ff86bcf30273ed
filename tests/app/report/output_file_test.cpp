// Reports reach the disk whole or not at all, and leave no temporary file.

#include "app/report/output_file.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace tilesim::report {
namespace {

class OutputFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("tilesim_output_file_test_" +
            std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string read(const std::filesystem::path& path) const {
    std::ifstream file(path, std::ios::binary);
    std::ostringstream text;
    text << file.rdbuf();
    return text.str();
  }
  std::size_t files_in_dir() const {
    return static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir_),
                                                  std::filesystem::directory_iterator()));
  }

  std::filesystem::path dir_;
};

TEST_F(OutputFileTest, WritesTheTextAndReplacesAnOldFileWhole) {
  const std::filesystem::path path = dir_ / "out.json";
  ASSERT_FALSE(write_file_atomically(path, "old contents, longer than the new\n"));
  ASSERT_FALSE(write_file_atomically(path, "new\n"));
  EXPECT_EQ(read(path), "new\n");
  EXPECT_EQ(files_in_dir(), 1u);  // no temporary file left beside it
}

TEST_F(OutputFileTest, AFailedRenameLeavesTheTargetAndNoTemporaryFile) {
  const std::filesystem::path target = dir_ / "a_directory";
  std::filesystem::create_directories(target / "inside");
  const std::optional<std::string> problem = write_file_atomically(target, "text");
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("cannot write"), std::string::npos) << *problem;
  EXPECT_TRUE(std::filesystem::is_directory(target / "inside"));
  EXPECT_EQ(files_in_dir(), 1u);
}

TEST_F(OutputFileTest, AMissingDirectoryIsReportedWithItsReason) {
  const std::optional<std::string> problem =
      write_file_atomically(dir_ / "no" / "such" / "dir" / "out.csv", "text");
  ASSERT_TRUE(problem);
  EXPECT_NE(problem->find("No such file or directory"), std::string::npos) << *problem;
  EXPECT_EQ(files_in_dir(), 0u);
}

TEST_F(OutputFileTest, AppendsWholePieces) {
  const std::filesystem::path path = dir_ / "rows.csv";
  ASSERT_FALSE(append_to_file(path, "a,b\n"));
  ASSERT_FALSE(append_to_file(path, "1,2\n"));
  EXPECT_EQ(read(path), "a,b\n1,2\n");
}

}  // namespace
}  // namespace tilesim::report
