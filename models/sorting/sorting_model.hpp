#pragma once
// The `sorting` model: times one sort on n keys in measurement mode. A reading is the mean time of
// one sort over a batch of sorts, each (by default) on fresh keys; ns_per_f is the constant c in
// T = c f(n), with f the sort's order. See models/sorting/README.md.

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "early_stop.hpp"
#include "mcpilot/model.hpp"
#include "sorts.hpp"

namespace mcpilot::sorting {

class sorting_model : public model {
 public:
  void declare(model_spec& s) const override;
  void configure(const parameters& p) override;
  std::unique_ptr<workload> open_workload() const override;
  std::vector<model_fact> model_facts() const override;
  // The study's early stop along model.n (early_stop.hpp): an n^2 sort or Shell sort is not run at
  // larger n once it is clearly slower than the slowest n log n sort at stop_sizes consecutive
  // sizes (by stop_margin); none with stop_sizes = 0.
  std::vector<stop_axis_rule> stop_axis_rules() const override;
  // With counts = true: the exact expectations of the counts over random distinct keys, where one
  // is known (docs/models/sorting.md, "Counts").
  std::map<std::string, double> analytic() const override;
  // The keys, scratch and reference copy; a reading's duration from the sort's typical constant.
  resource_estimate estimate() const override;

  // Bytes a session needs for keys of n elements and a fixed batch (0: calibrated, when the
  // batch grows only while a batch lasts under a millisecond, so n keys dominate): the batch's
  // keys, the scratch array and the reference copy; paired timing adds the reference sort's keys,
  // as many as the batch's.
  static double bytes_needed(std::int64_t n, std::int64_t batch, bool paired = false);

 private:
  const algorithm* algorithm_ = nullptr;  // with the gaps applied (Shell sort)
  shell_gaps_kind gaps_ = shell_gaps_kind::pratt;
  std::int64_t n_ = 0;
  std::string keys_ = "uniform";
  bool fresh_keys_ = true;
  std::int64_t batch_ = 0;
  bool counts_ = false;
  code_layout layout_;
  stop_rule stop_;
  // A sort under the rule with the rule on: the reference timed beside it in every reading
  // (early_stop.hpp, paired timing); otherwise none.
  const algorithm* paired_with_ = nullptr;
  std::string stop_reference_ = "quick-queue";
};

}  // namespace mcpilot::sorting
