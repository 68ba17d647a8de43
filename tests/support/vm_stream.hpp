#pragma once
// Readings with the structure of run times on a shared virtual machine: AR(1) noise around a
// level, bursts of load that raise the level for a while (a neighbour, a frequency step), and
// rare descheduling outliers. Started in its stationary distribution, so its long-run mean is
// known exactly and there is no warm-up. Shared by the quick study in the default run
// (tests/unit/stream_analysis_test.cpp) and the full one (tests/validation/stream_sessions.cpp).

#include <algorithm>
#include <boost/random/bernoulli_distribution.hpp>
#include <boost/random/normal_distribution.hpp>
#include <boost/random/uniform_real_distribution.hpp>
#include <cmath>
#include <cstddef>
#include <random>
#include <span>
#include <vector>

#include "mcpilot/stats/analysis.hpp"

namespace mcpilot::test {

struct vm_stream_shape {
  double level = 10;               // ms, the quiet machine's mean
  double noise_sd = 0.3;           // marginal sd of the AR(1) noise
  double phi = 0.6;                // its lag-1 coefficient
  double burst_start = 1.0 / 400;  // per reading, while quiet
  double burst_end = 1.0 / 25;     // per reading, while in a burst (mean length 25)
  double burst_rise = 0.2;         // a burst raises the level by this fraction
  double outlier_rate = 0.004;     // per reading
  double outlier_size = 1.0;       // an outlier adds this fraction of the level

  // The fraction of readings in a burst in the stationary state: start / (start + end).
  double burst_fraction() const { return burst_start / (burst_start + burst_end); }
  // E[reading] = level (1 + rise * burst fraction + size * outlier rate), exactly.
  double long_run_mean() const {
    return level * (1 + burst_rise * burst_fraction() + outlier_size * outlier_rate);
  }
};

class vm_stream {
 public:
  vm_stream(const vm_stream_shape& s, std::uint64_t seed) : s_(s), gen_(seed) {
    boost::random::bernoulli_distribution<double> in_burst(s_.burst_fraction());
    burst_ = in_burst(gen_);
    v_ = normal_(gen_);
  }
  double next() {
    const double innovation = std::sqrt(1 - s_.phi * s_.phi);
    const double x = s_.level * (1 + (burst_ ? s_.burst_rise : 0)) + s_.noise_sd * v_ +
                     (outlier_(gen_) < s_.outlier_rate ? s_.outlier_size * s_.level : 0);
    v_ = s_.phi * v_ + innovation * normal_(gen_);
    burst_ = burst_ ? outlier_(gen_) >= s_.burst_end : outlier_(gen_) < s_.burst_start;
    return x;
  }

 private:
  vm_stream_shape s_;
  std::mt19937_64 gen_;
  boost::random::normal_distribution<double> normal_;
  boost::random::uniform_real_distribution<double> outlier_{0.0, 1.0};
  bool burst_ = false;
  double v_ = 0;
};

struct stream_session {
  bool converged = false;
  std::size_t n = 0;
  double mean = 0, low = 0, high = 0;
  std::size_t begin = 0, used = 0;  // the readings the interval rests on: [begin, begin + used)
  std::size_t subsessions = 0;
};

// A sequential session as `bench` and stream-style `run` drive one: a first round of
// max(10, 2 min_samples) readings, then rounds of the readings still needed (at least a tenth of
// those so far, at most doubling them), analysed after each, until converged or max_n.
// Any source with next() will do.
template <class Source>
stream_session run_stream_session(Source& src, const analysis_options& opt, std::size_t max_n) {
  std::vector<double> x;
  std::size_t target = std::max<std::size_t>(10, 2 * opt.requirements.min_samples);
  stream_session r;
  while (true) {
    while (x.size() < target) x.push_back(src.next());
    const analysis a = analyze(x, opt);
    r.n = x.size();
    if (a.converged && a.ci_low && a.ci_high) {
      r.converged = true;
      r.mean = *a.mean;
      r.low = *a.ci_low;
      r.high = *a.ci_high;
      r.begin = a.warmup.removed_begin;
      r.used = a.n_used;
      r.subsessions = a.subsession_count.value_or(0);
      return r;
    }
    if (x.size() >= max_n) return r;
    const std::size_t have = x.size() - a.warmup.removed_begin - a.warmup.removed_end;
    std::size_t more = a.required_samples && *a.required_samples > have ? *a.required_samples - have
                                                                        : x.size() / 10;
    more = std::clamp<std::size_t>(more, std::max<std::size_t>(10, x.size() / 10), x.size());
    target = std::min(max_n, x.size() + more);
  }
}

}  // namespace mcpilot::test
