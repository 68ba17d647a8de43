#pragma once
// The `mojette.layout` model: a block stored as n Mojette projections on n servers. How likely
// the block is to be unrecoverable when servers fail (independently, or over a mission with
// rebuilds), exactly by the Katz criterion and by simulation, and how fast the transform encodes
// and decodes. See docs/models/mojette.md.

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/memory.hpp"
#include "mcpilot/model.hpp"
#include "mojette/inverse.hpp"
#include "mojette/layout.hpp"
#include "mojette/server_lifetime.hpp"

namespace mcpilot::mojette {

class mojette_model : public model, public per_thread_memory {
 public:
  void declare(model_spec& spec) const override;
  void configure(const parameters& p) override;
  void replicate(replication& r) const override;
  std::map<std::string, double> analytic() const override { return exact_; }
  std::vector<model_fact> model_facts() const override;
  resource_estimate estimate() const override;
  double bytes_per_thread() const override;

 private:
  // Decodes from the survivors in `mask` and compares with `block`; throws std::logic_error on a
  // mismatch (a bug, never an expected outcome).
  void verify_decode(const std::vector<std::uint64_t>& block,
                     const std::vector<std::vector<std::uint64_t>>& proj, std::uint64_t mask) const;
  std::vector<std::uint64_t> random_block(philox_stream& rng) const;

  layout layout_;
  grid grid_;
  std::size_t block_bytes_ = 0;
  bool lifetime_ = false;
  double failure_probability_ = 0;
  lifetime_scenario scenario_;
  bool verify_ = false;
  bool timing_ = true;
  std::vector<char> recoverable_;
  // The smallest recoverable survivor sets (for RozoFS: the k-subsets): the decode timing reads
  // from one of them, drawn uniformly; their plans are built once when they fit in 64 MiB.
  std::vector<std::uint64_t> decode_sets_;
  std::vector<std::shared_ptr<const reconstruction_plan>> plans_;
  std::map<std::string, double> exact_;
  std::optional<exact_availability> steady_;  // the exact availability, for its long-run facts
};

}  // namespace mcpilot::mojette
