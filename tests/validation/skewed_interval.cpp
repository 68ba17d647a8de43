// The skewed-interval study, full size (20,000 series of 300 lognormal(0, 1.5) readings; 500
// fresh runs of the "required" size): coverage of the exact mean, the width against the
// symmetric interval's, and how often the required size reaches the asked width. The same study
// as `mcpilot validate --full --only skewed-interval`; docs/validation.md has its figures.
#include <cstdio>

#include "mcpilot/validate.hpp"

int main() {
  const auto out = mcpilot::skewed_interval_study().run(mcpilot::study_size::full, {});
  for (const auto& r : out.rates)
    std::printf("%-80s %llu/%llu = %.4f [%.4f, %.4f] gate %s %.2f %s\n", r.what.c_str(),
                static_cast<unsigned long long>(r.events),
                static_cast<unsigned long long>(r.trials), r.rate(), r.low(), r.high(),
                r.at_least ? ">=" : "<=", r.gate, r.pass() ? "PASS" : "FAIL");
  for (const auto& n : out.notes) std::printf("%s\n", n.c_str());
  return out.pass() ? 0 : 1;
}
