#pragma once
// The birthday problem: in a room of `people`, how likely is it that two share a birthday?
// Each replication fills one room with birthdays drawn uniformly from 365 days and records 1 if
// any two coincide, else 0 -- a proportion. The exact answer is 1 - 365!/((365 - n)! 365^n),
// 0.507297 for 23 people.

#include <bitset>
#include <boost/random/uniform_int_distribution.hpp>
#include <cstdint>
#include <map>
#include <string>

#include <mcpilot/model.hpp>

class birthday_model : public mcpilot::model {
 public:
  void declare(mcpilot::model_spec& s) const override {
    s.describe("The birthday problem: chance that two people in a room share a birthday");
    s.integer("people", 23, "people in the room").in_range(2, 366);
    s.proportion("shared").describe("1 if two people share a birthday, else 0");
  }

  void configure(const mcpilot::parameters& p) override { people_ = p.integer("people"); }

  // The exact answer, shown beside the estimate: 1 - prod_{k<n} (365 - k) / 365.
  std::map<std::string, double> analytic() const override {
    double none_shared = 1;
    for (std::int64_t k = 0; k < people_; ++k) none_shared *= (365.0 - k) / 365.0;
    return {{"shared", 1 - none_shared}};
  }

  void replicate(mcpilot::replication& r) const override {
    boost::random::uniform_int_distribution<int> day(0, 364);
    std::bitset<365> taken;
    bool shared = false;
    for (std::int64_t k = 0; k < people_ && !shared; ++k) {
      const int d = day(r.rng());
      shared = taken.test(d);
      taken.set(d);
    }
    r.record("shared", shared ? 1.0 : 0.0);
  }

 private:
  std::int64_t people_ = 23;
};
