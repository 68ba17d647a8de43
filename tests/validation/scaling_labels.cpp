// The scaling-label study, full size (200 seeded datasets per case): how often `scaling` labels
// synthetic timings of known shape compatible with a wrong shape (gate 1%), and how often clean
// designs keep their true label. The same study as `mcpilot validate --full --only
// scaling-labels`; docs/validation.md has its figures.
#include <cstdio>

#include "mcpilot/validate.hpp"

int main() {
  const auto out = mcpilot::scaling_labels_study().run(mcpilot::study_size::full, {});
  for (const auto& r : out.rates)
    std::printf("%-100s %llu/%llu = %.4f [%.4f, %.4f] gate %s %.2f %s\n", r.what.c_str(),
                static_cast<unsigned long long>(r.events),
                static_cast<unsigned long long>(r.trials), r.rate(), r.low(), r.high(),
                r.at_least ? ">=" : "<=", r.gate, r.pass() ? "PASS" : "FAIL");
  return out.pass() ? 0 : 1;
}
