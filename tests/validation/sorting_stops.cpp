// The sort-constant study's stop rule, full size (20,000 synthetic triples of runs per case): how
// often three runs stop a sort at sizes more than one grid step apart, with the rule of two
// consecutive sizes and, for comparison, the one-size rule of before. The same study as
// `mcpilot validate --full --only sorting-stops`; docs/validation.md has its figures.
#include <cstdio>

#include "sorting/stop_rule_study.hpp"

int main() {
  const auto study = mcpilot::sorting::stop_rule_study();
  const auto out = study.run(mcpilot::study_size::full, {});
  for (const auto& r : out.rates)
    std::printf("%-80s %llu/%llu = %.4f [%.4f, %.4f] gate >= %.2f %s\n", r.what.c_str(),
                static_cast<unsigned long long>(r.events),
                static_cast<unsigned long long>(r.trials), r.rate(), r.low(), r.high(), r.gate,
                r.pass() ? "PASS" : "FAIL");
  for (const auto& n : out.notes) std::printf("%s\n", n.c_str());
  return out.pass() ? 0 : 1;
}
