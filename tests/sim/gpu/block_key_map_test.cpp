// BlockKeyMap: the L2 reuse model's open-addressing map from BlockKey to its
// resident parts, checked against std::map.

#include "sim/gpu/block_key_map.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <tuple>

namespace tilesim::gpu {
namespace {

using KeyTuple = std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>;

TEST(BlockKeyMap, ANewKeyIsValueInitializedAndKeepsWhatIsStored) {
  BlockKeyMap<int> map;
  EXPECT_EQ((map[BlockKey{0, 0, 0}]), 0);
  map[BlockKey{0, 0, 0}] = 7;
  map[BlockKey{0, 0, 1}] = 8;
  EXPECT_EQ((map[BlockKey{0, 0, 0}]), 7);
  EXPECT_EQ((map[BlockKey{0, 0, 1}]), 8);
  EXPECT_EQ((map[BlockKey{1, 0, 0}]), 0);  // keys differing in any field are different
  EXPECT_EQ((map[BlockKey{0, 1, 0}]), 0);
}

// Many keys (far past the initial table, so it grows several times), with
// field values that collide in the low bits, against std::map.
TEST(BlockKeyMap, AgreesWithAnOrderedMapThroughGrowth) {
  BlockKeyMap<std::int64_t> map;
  std::map<KeyTuple, std::int64_t> reference;
  std::mt19937_64 random(16);
  std::uniform_int_distribution<std::uint32_t> tensor(0, 5);
  std::uniform_int_distribution<std::uint32_t> panel(0, 3000);
  std::uniform_int_distribution<std::uint32_t> chunk(0, 3);
  for (std::int64_t i = 0; i < 50000; ++i) {
    const std::uint32_t t = tensor(random);
    const std::uint32_t p = panel(random) << (i % 3 == 0 ? 20 : 0);
    const std::uint32_t c = chunk(random);
    const BlockKey key{t, p, c};
    std::int64_t& value = map[key];
    std::int64_t& expected = reference[{t, p, c}];
    ASSERT_EQ(value, expected) << "key " << t << "," << p << "," << c;
    value += i;
    expected += i;
  }
  EXPECT_GT(reference.size(), 10000u);
  for (const auto& [tuple, expected] : reference) {
    const auto [t, p, c] = tuple;
    EXPECT_EQ((map[BlockKey{t, p, c}]), expected);
  }
}

}  // namespace
}  // namespace tilesim::gpu
