#include "storage/availability_importance.hpp"

namespace mcpilot::storage {

namespace {

constexpr auto loss = availability_chain::loss_state;

// A move toward unavailability or loss: a failure (f grows) or an outage starting (o grows).
bool toward_down(const availability_chain& c, std::size_t from, std::size_t to) {
  return to == loss || c.failed(to) > c.failed(from) || c.out(to) > c.out(from);
}

// The index of the move drawn from state s, with the likelihood ratio of the draw (original
// probability over the one used). `biased` tilts as the header says.
std::size_t draw(const availability_chain& c, std::size_t s, bool biased, double bias,
                 philox_stream& rng, double& ratio) {
  const auto& moves = c.from(s);
  double total = 0, down_rate = 0, back_rate = 0;
  int down_kinds = 0;
  for (const auto& m : moves) {
    total += m.rate;
    if (toward_down(c, s, m.to)) {
      down_rate += m.rate;
      ++down_kinds;
    } else {
      back_rate += m.rate;
    }
  }
  const double down_share = back_rate > 0 ? bias : 1.0;
  auto probability = [&](const availability_transition& m) {
    if (!biased) return m.rate / total;
    if (toward_down(c, s, m.to)) return down_kinds > 0 ? down_share / down_kinds : 0.0;
    return back_rate > 0 ? (1 - down_share) * m.rate / back_rate : 0.0;
  };
  double u = rng.uniform();
  std::size_t pick = moves.size() - 1;  // u past the end by rounding: the last move
  for (std::size_t i = 0; i < moves.size(); ++i) {
    const double p = probability(moves[i]);
    if (u < p) {
      pick = i;
      break;
    }
    u -= p;
  }
  ratio *= moves[pick].rate / total / probability(moves[pick]);
  (void)down_rate;
  return pick;
}

}  // namespace

double availability_cycle_hours(const availability_chain& c, philox_stream& rng) {
  double hours = 0, ratio = 1;
  std::size_t s = 0;
  while (true) {
    const double q = c.exit_rate(s);
    if (q == 0) return hours;  // nothing ever happens: a cycle of no length is never reached
    hours += 1 / q;
    const std::size_t to = c.from(s)[draw(c, s, false, 0, rng, ratio)].to;
    if (to == loss || to == 0) return hours;
    s = to;
  }
}

availability_weights availability_cycle_weights(const availability_chain& c, philox_stream& rng,
                                                double bias) {
  availability_weights w;
  double ratio = 1;
  std::size_t s = 0;
  while (true) {
    const double q = c.exit_rate(s);
    if (q == 0) return w;
    if (c.unavailable(s)) w.unavailable_hours += ratio / q;
    const std::size_t to = c.from(s)[draw(c, s, s != 0, bias, rng, ratio)].to;
    if (to == loss || to == 0) return w;
    if (!c.unavailable(s) && c.unavailable(to)) w.entries += ratio;
    s = to;
  }
}

}  // namespace mcpilot::storage
