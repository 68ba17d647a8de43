#pragma once
// The pictures of `mcpilot run --plot`, described for the one gnuplot driver (io/plot.hpp):
// - one session: each required quantity's interval after every round, narrowing towards its
//   target band, with the exact value when the model knows one;
// - a sweep: each required quantity against the first numeric swept key, with interval bars, one
//   series per value of the other keys (log axes where the values came from a geometric range).
// The session records nothing for plots: the command keeps a round_history through
// session_hooks::on_round.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "mcpilot/io/config.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/sweep/run.hpp"

namespace mcpilot {

class round_history {
 public:
  struct entry {
    std::uint64_t replications = 0;  // stream style: readings of the first quantity, all streams
    double mean, low, high;          // NaN where there is none (no interval yet, unbounded)
    double target_width;             // the whole width the quantity must reach, in its unit
  };
  // A session_hooks::on_round: keeps every quantity's interval after the round.
  void record(const session_progress& p);
  bool empty() const { return rounds_.empty(); }
  // One entry per round for the named quantity.
  std::vector<entry> of(const std::string& quantity) const;
  bool stream_style() const { return stream_style_; }

 private:
  std::vector<std::map<std::string, entry>> rounds_;
  bool stream_style_ = false;
};

// Panels for the required quantities (all when none is required), titled with the config's name.
plot_request session_plot(const round_history& h, const session_result& r,
                          const std::map<std::string, double>& analytic, const std::string& title,
                          const std::string& output, plot_format format);

plot_request sweep_plot(const sweep_result& r, const experiment_config& base,
                        const std::string& output, plot_format format);

}  // namespace mcpilot
