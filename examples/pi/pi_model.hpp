#pragma once
// Estimating pi by throwing darts: the smallest complete replication-style model. Each
// replication throws `darts` darts uniformly on the unit square and records 4 x the fraction that
// land inside the quarter circle, an unbiased estimate of pi with variance pi (4 - pi) / darts.

#include <boost/random/uniform_01.hpp>
#include <cstdint>
#include <map>
#include <numbers>
#include <string>

#include "mcpilot/model.hpp"

namespace examples {

class pi_model : public mcpilot::model {
 public:
  void declare(mcpilot::model_spec& s) const override {
    s.describe("Estimate pi by throwing darts at the unit square");
    s.integer("darts", 1000, "darts thrown per replication").at_least(1);
    s.quantity("pi").describe("4 x the fraction of darts inside the quarter circle");
  }

  void configure(const mcpilot::parameters& p) override { darts_ = p.integer("darts"); }

  // The answer is known, so the table shows whether the interval covers it.
  std::map<std::string, double> analytic() const override { return {{"pi", std::numbers::pi}}; }

  void replicate(mcpilot::replication& r) const override {
    // Boost.Random, not std::uniform_real_distribution: its numbers are the same with every
    // compiler, so a seed reproduces a result everywhere.
    boost::random::uniform_01<double> u;
    std::int64_t inside = 0;
    for (std::int64_t k = 0; k < darts_; ++k) {
      const double x = u(r.rng()), y = u(r.rng());
      if (x * x + y * y < 1.0) ++inside;
    }
    r.record("pi", 4.0 * static_cast<double>(inside) / static_cast<double>(darts_));
  }

 private:
  std::int64_t darts_ = 1000;
};

}  // namespace examples
