#include "workloads/attention/attention_variant.hpp"

#include <stdexcept>

#include "workloads/attention/flash_attention.hpp"
#include "workloads/attention/flash_decoding_attention.hpp"
#include "workloads/attention/paged_attention_v1.hpp"
#include "workloads/attention/paged_attention_v2.hpp"
#include "workloads/attention/stream_k_decode_attention.hpp"
#include "workloads/attention/unfused_attention.hpp"

namespace tilesim::workloads {

void AttentionVariantRegistry::add(std::string name,
                                   std::unique_ptr<const AttentionVariant> variant) {
  if (find(name) != nullptr) throw std::logic_error("attention variant registered twice: " + name);
  variants_.emplace_back(std::move(name), std::move(variant));
}

const AttentionVariant* AttentionVariantRegistry::find(const std::string& name) const {
  for (const auto& [registered, variant] : variants_) {
    if (registered == name) return variant.get();
  }
  return nullptr;
}

std::vector<std::string> AttentionVariantRegistry::names() const {
  std::vector<std::string> names;
  for (const auto& entry : variants_) names.push_back(entry.first);
  return names;
}

AttentionVariantRegistry builtin_attention_variants() {
  AttentionVariantRegistry registry;
  registry.add("unfused", std::make_unique<UnfusedAttention>());
  registry.add("flash", std::make_unique<FlashAttention>());
  registry.add("flash_decoding", std::make_unique<FlashDecodingAttention>());
  registry.add("paged_v1", std::make_unique<PagedAttentionV1>());
  registry.add("paged_v2", std::make_unique<PagedAttentionV2>());
  registry.add("stream_k_decode", std::make_unique<StreamKDecodeAttention>());
  return registry;
}

}  // namespace tilesim::workloads
