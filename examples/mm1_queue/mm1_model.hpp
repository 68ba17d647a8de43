#pragma once
// An M/M/1 queue, the classic steady-state model: Poisson arrivals at rate lambda, exponential
// service at rate mu, one server, first come first served. The quantity `wait` is each customer's
// waiting time in the queue (before service starts); its steady-state mean is
// rho / (mu - lambda) with rho = lambda / mu, which is 4 at lambda = 0.8 and mu = 1.
//
// Stream style: each stream is one long run of the queue, started empty, so its first readings
// are biased low (a warm-up the engine removes) and consecutive waits are strongly correlated
// (which the engine's subsession means account for). The waits follow Lindley's recursion
//   W_1 = 0,  W_{n+1} = max(0, W_n + S_n - A_{n+1}),
// where S_n is customer n's service time and A_{n+1} the gap before customer n+1 arrives.

#include <boost/random/exponential_distribution.hpp>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "mcpilot/error.hpp"
#include "mcpilot/model.hpp"
#include "mcpilot/number_text.hpp"

namespace examples {

class mm1_model : public mcpilot::model {
 public:
  void declare(mcpilot::model_spec& s) const override {
    s.describe("M/M/1 queue: waiting time in queue per customer (steady state)");
    s.stream_style();
    s.number("arrival_rate", 0.8, "customers arriving per unit of time (lambda)").positive();
    s.number("service_rate", 1.0, "customers served per unit of time when busy (mu)").positive();
    s.quantity("wait").with_unit("time").describe(
        "waiting time in queue per customer; rho / (mu - lambda) in steady state");
  }

  void configure(const mcpilot::parameters& p) override {
    lambda_ = p.number("arrival_rate");
    mu_ = p.number("service_rate");
    // A constraint across two fields: the queue has no steady state unless rho < 1.
    if (lambda_ >= mu_)
      throw mcpilot::parameter_error(
          "arrival_rate", "arrival_rate must be below service_rate for a steady state (got " +
                              mcpilot::number_text(lambda_) + " >= " + mcpilot::number_text(mu_) +
                              ")");
  }

  std::unique_ptr<mcpilot::stream> open_stream(std::uint64_t) const override {
    return std::make_unique<queue>(lambda_, mu_);
  }

  // The steady-state mean waiting time in queue, rho / (mu - lambda).
  double expected_wait() const { return lambda_ / mu_ / (mu_ - lambda_); }
  std::map<std::string, double> analytic() const override { return {{"wait", expected_wait()}}; }

 private:
  // One run of the queue; it keeps the current customer's wait between rounds.
  class queue : public mcpilot::stream {
   public:
    queue(double lambda, double mu) : arrival_(lambda), service_(mu) {}

    void advance(mcpilot::stream_round& r, std::size_t count) override {
      for (std::size_t k = 0; k < count; ++k) {
        r.record(std::size_t{0}, wait_);
        const double w = wait_ + service_(r.rng()) - arrival_(r.rng());
        wait_ = w > 0 ? w : 0;
      }
    }

    // Checkpoints: the current wait is the queue's whole state (the distributions keep none, and
    // the random stream is saved by the session). Its exact bytes, so a resume is bit-identical.
    std::optional<std::string> save() const override {
      return std::string(reinterpret_cast<const char*>(&wait_), sizeof wait_);
    }
    void restore(std::string_view state) override {
      if (state.size() == sizeof wait_) std::memcpy(&wait_, state.data(), sizeof wait_);
    }

   private:
    // Boost.Random distributions give the same numbers with every compiler.
    boost::random::exponential_distribution<double> arrival_, service_;
    double wait_ = 0;  // the next customer's wait; the queue starts empty
  };

  double lambda_ = 0.8, mu_ = 1.0;
};

}  // namespace examples
