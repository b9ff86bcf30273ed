#include "hwmodels/quantity.hpp"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cmath>

#include "hwmodels/closest_match.hpp"

namespace tilesim::config {
namespace {

using K = QuantityKind;

double parsed(std::string_view text, QuantityKind kind, std::optional<double> clock = {}) {
  const Parsed<double> result = parse_quantity(text, kind, clock);
  EXPECT_TRUE(result.ok()) << text << ": " << result.error;
  return result.value.value_or(std::nan(""));
}

std::string error_of(std::string_view text, QuantityKind kind, std::optional<double> clock = {}) {
  const Parsed<double> result = parse_quantity(text, kind, clock);
  EXPECT_FALSE(result.ok()) << text << " parsed as " << result.value.value_or(0);
  return result.error;
}

// Decimal prefixes give exactly the double of the written literal (one rounding).
TEST(ParseQuantity, DecimalUnitsAreExact) {
  EXPECT_EQ(parsed("3.35 TB/s", K::bandwidth), 3.35e12);
  EXPECT_EQ(parsed("2039 GB/s", K::bandwidth), 2039e9);
  EXPECT_EQ(parsed("7.3 TB/s", K::bandwidth), 7.3e12);
  EXPECT_EQ(parsed("80 GB", K::size), 80e9);
  EXPECT_EQ(parsed("1980 MHz", K::frequency), 1.98e9);
  EXPECT_EQ(parsed("4.5 us", K::time), 4.5e-6);
  EXPECT_EQ(parsed("0.9 us", K::time), 0.9e-6);
  EXPECT_EQ(parsed("400 ns", K::time), 400e-9);
  EXPECT_EQ(parsed("989 TFLOP/s", K::compute_rate), 989e12);
  EXPECT_EQ(parsed("16 Gop/s", K::op_rate), 16e9);
  EXPECT_EQ(parsed("1.5e3 GB/s", K::bandwidth), 1.5e12);
  EXPECT_EQ(parsed("2 ms", K::time), 2e-3);
  EXPECT_EQ(parsed("250 ps", K::time), 250e-12);
  EXPECT_EQ(parsed("1 s", K::time), 1.0);
  EXPECT_EQ(parsed("3 kHz", K::frequency), 3e3);
}

TEST(ParseQuantity, BinaryUnitsArePowersOf1024) {
  EXPECT_EQ(parsed("50 MiB", K::size), 50.0 * 1024 * 1024);
  EXPECT_EQ(parsed("228 KiB", K::size), 228.0 * 1024);
  EXPECT_EQ(parsed("4 GiB", K::size), 4.0 * 1024 * 1024 * 1024);
  EXPECT_EQ(parsed("1 TiB", K::size), std::ldexp(1.0, 40));
  EXPECT_EQ(parsed("2 KiB/s", K::bandwidth), 2048.0);
  EXPECT_EQ(parsed("1 KB", K::size), 1000.0);
}

TEST(ParseQuantity, PerClockUnitsConvertWithTheClock) {
  const double clock = 1.98e9;
  EXPECT_EQ(parsed("4096 flop/clk", K::compute_rate, clock), 4096 * 1.98e9);
  EXPECT_EQ(parsed("128 B/clk", K::bandwidth, clock), 128 * 1.98e9);
  EXPECT_EQ(parsed("16 op/clk", K::op_rate, clock), 16 * 1.98e9);
  EXPECT_EQ(parsed("260 clk", K::time, clock), 260 / 1.98e9);
}

TEST(ParseQuantity, SpaceIsOptionalAndOuterSpaceIgnored) {
  EXPECT_EQ(parsed("50MiB", K::size), 50.0 * 1024 * 1024);
  EXPECT_EQ(parsed("  3.35TB/s ", K::bandwidth), 3.35e12);
  EXPECT_EQ(parsed("4096flop/clk", K::compute_rate, 1e9), 4096e9);
}

TEST(ParseQuantity, EveryDeclaredUnitParses) {
  for (const Unit& unit : units()) {
    const std::string text = "2 " + std::string(unit.symbol);
    const Parsed<double> result = parse_quantity(text, unit.kind, 1e9);
    ASSERT_TRUE(result.ok()) << text << ": " << result.error;
    EXPECT_GT(*result.value, 0) << text;
  }
}

TEST(ParseQuantity, NegativeValuesParse) {
  // Range checks, not the parser, decide whether a negative value is allowed.
  EXPECT_EQ(parsed("-400 ns", K::time), -400e-9);
}

TEST(ParseQuantity, MissingUnitSaysWhatToWrite) {
  EXPECT_EQ(error_of("3.35", K::bandwidth),
            "unit missing: write e.g. \"3.35 TB/s\"; allowed units: B/s, KB/s, MB/s, GB/s, TB/s, "
            "KiB/s, MiB/s, GiB/s, TiB/s, B/clk");
  EXPECT_EQ(error_of("132", K::size),
            "unit missing: write e.g. \"50 MiB\"; allowed units: B, KB, MB, GB, TB, KiB, MiB, GiB, "
            "TiB");
}

TEST(ParseQuantity, WrongKindNamesBothKinds) {
  EXPECT_EQ(error_of("50 MHz", K::size),
            "\"50 MHz\" is a frequency, expected a size; allowed units: B, KB, MB, GB, TB, KiB, "
            "MiB, GiB, TiB");
  EXPECT_EQ(error_of("16 op/clk", K::compute_rate, 1e9),
            "\"16 op/clk\" is an op rate, expected a compute rate; allowed units: flop/s, GFLOP/s, "
            "TFLOP/s, PFLOP/s, flop/clk");
  EXPECT_NE(error_of("4.5 us", K::frequency).find("is a time, expected a frequency"),
            std::string::npos);
}

TEST(ParseQuantity, UnknownUnitSuggestsTheClosest) {
  EXPECT_EQ(error_of("3.35 TB/sec", K::bandwidth),
            "unknown unit \"TB/sec\" in \"3.35 TB/sec\"; did you mean \"TB/s\"? allowed units: "
            "B/s, KB/s, MB/s, GB/s, TB/s, KiB/s, MiB/s, GiB/s, TiB/s, B/clk");
  EXPECT_NE(error_of("1980 mhz", K::frequency).find("did you mean \"MHz\""), std::string::npos);
  EXPECT_NE(error_of("989 TFLOPS", K::compute_rate).find("did you mean \"TFLOP/s\""),
            std::string::npos);
  EXPECT_NE(error_of("50 MB/s", K::size).find("is a bandwidth, expected a size"),
            std::string::npos);
  const std::string far = error_of("5 parsecs", K::size);
  EXPECT_NE(far.find("unknown unit \"parsecs\""), std::string::npos);
  EXPECT_EQ(far.find("did you mean"), std::string::npos) << far;
}

TEST(ParseQuantity, MalformedNumbers) {
  EXPECT_EQ(error_of("3..35 TB/s", K::bandwidth),
            "malformed number \"3..35\" in \"3..35 TB/s\"; write e.g. \"3.35 TB/s\"");
  EXPECT_NE(error_of("3,35 TB/s", K::bandwidth).find("malformed number \"3,35\""),
            std::string::npos);
  EXPECT_NE(error_of("1e TB/s", K::bandwidth).find("malformed number \"1e\""), std::string::npos);
  EXPECT_EQ(error_of("fast", K::bandwidth),
            "\"fast\" does not start with a number; write e.g. \"3.35 TB/s\"");
  EXPECT_EQ(error_of("", K::time), "value is empty; write e.g. \"4.5 us\"");
  EXPECT_EQ(error_of("1e400 B", K::size), "\"1e400 B\" is out of range");
}

TEST(ParseQuantity, PerClockWithoutClockIsAnError) {
  const std::string error = error_of("4096 flop/clk", K::compute_rate);
  EXPECT_TRUE(error.starts_with(kPerClockWithoutClock)) << error;
  EXPECT_NE(error.find("sm.clock"), std::string::npos) << error;
}

TEST(ParseNumber, PlainNumbersAndFractions) {
  EXPECT_EQ(parse_number("0.92").value, 0.92);
  EXPECT_EQ(parse_number("3.09/3.35").value, 3.09 / 3.35);
  EXPECT_EQ(parse_number(" 3.09 / 3.35 ").value, 3.09 / 3.35);
  EXPECT_EQ(parse_number("1e-3").value, 1e-3);
  EXPECT_EQ(parse_number("-2").value, -2.0);
  EXPECT_EQ(parse_number(".5").value, 0.5);
}

TEST(ParseNumber, Rejections) {
  for (const char* text : {"92%", "abc", "1/", "/2", "", "0.9.2", "1/2/3", "nan", "inf"}) {
    const Parsed<double> result = parse_number(text);
    EXPECT_FALSE(result.ok()) << text;
    EXPECT_NE(result.error.find("expected a number like 0.92"), std::string::npos) << text;
  }
  EXPECT_EQ(parse_number("1/0").error, "division by zero in \"1/0\"");
}

TEST(ParseInteger, AcceptsOnlyPlainIntegers) {
  EXPECT_EQ(parse_integer("132").value, 132);
  EXPECT_EQ(parse_integer("-4").value, -4);
  EXPECT_EQ(parse_integer("+7").value, 7);
  EXPECT_EQ(parse_integer("2147483648").value, 2147483648);
  for (const char* text : {"132.5", "1e3", "12 KB", "", "0x10", "twelve"}) {
    const Parsed<std::int64_t> result = parse_integer(text);
    EXPECT_FALSE(result.ok()) << text;
    EXPECT_EQ(result.error, fmt::format("expected an integer, got \"{}\"", text));
  }
  EXPECT_EQ(parse_integer("99999999999999999999").error,
            "integer \"99999999999999999999\" is out of range");
}

TEST(FormatQuantity, PicksAReadableUnit) {
  EXPECT_EQ(format_quantity(3.35e12, K::bandwidth), "3.35 TB/s");
  EXPECT_EQ(format_quantity(50.0 * 1024 * 1024, K::size), "50 MiB");
  EXPECT_EQ(format_quantity(65536, K::size), "64 KiB");
  EXPECT_EQ(format_quantity(80e9, K::size), "80 GB");
  EXPECT_EQ(format_quantity(100, K::size), "100 B");
  EXPECT_EQ(format_quantity(4.5e-6, K::time), "4.5 us");
  EXPECT_EQ(format_quantity(1.98e9, K::frequency), "1.98 GHz");
  EXPECT_EQ(format_quantity(4096 * 1.98e9, K::compute_rate), "8.11 TFLOP/s");
  EXPECT_EQ(format_quantity(0, K::time), "0 ps");
}

TEST(ClosestMatch, EditDistance) {
  EXPECT_EQ(edit_distance("capactiy", "capacity"), 1u);  // one swap
  EXPECT_EQ(edit_distance("bandwdth", "bandwidth"), 1u);
  EXPECT_EQ(edit_distance("", "abc"), 3u);
  EXPECT_EQ(edit_distance("kitten", "sitting"), 3u);
}

TEST(ClosestMatch, SuggestsOnlyPlausibleTypos) {
  const std::vector<std::string> keys = {"capacity", "bandwidth", "efficiency", "latency"};
  EXPECT_EQ(closest_match("bandwdth", keys), "bandwidth");
  EXPECT_EQ(closest_match("Latency", keys), "latency");
  EXPECT_EQ(closest_match("efficency", keys), "efficiency");
  EXPECT_EQ(closest_match("speed", keys), std::nullopt);
  const std::vector<std::string> short_keys = {"m", "n", "k"};
  EXPECT_EQ(closest_match("x", short_keys), std::nullopt);
}

}  // namespace
}  // namespace tilesim::config
