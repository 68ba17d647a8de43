#include "sparse_prefix_sums.hpp"

#include <stdexcept>

namespace mcpilot {

sparse_prefix_sums::sparse_prefix_sums(std::span<const double> x, double centre, std::size_t stride)
    : x_(x), centre_(centre), stride_(stride == 0 ? 1 : stride) {
  kept_.reserve(x.size() / stride_ + 1);
  double s = 0;
  kept_.push_back(s);
  for (std::size_t i = 0; i < x.size(); ++i) {
    s += x[i] - centre;
    if ((i + 1) % stride_ == 0) kept_.push_back(s);
  }
}

sparse_prefix_sums::sparse_prefix_sums(std::span<const double> x, double centre,
                                       std::span<const double> full, std::size_t stride)
    : x_(x), centre_(centre), stride_(stride == 0 ? 1 : stride) {
  kept_.reserve(full.size() / stride_ + 1);
  for (std::size_t i = 0; i < full.size(); i += stride_) kept_.push_back(full[i]);
}

double sparse_prefix_sums::at(std::size_t i) const {
  double s = kept_[i / stride_];
  for (std::size_t j = i / stride_ * stride_; j < i; ++j) s += x_[j] - centre_;
  return s;
}

std::span<const double> sparse_prefix_sums::fill(std::size_t b, std::size_t e,
                                                 std::vector<double>& out) const {
  out.resize(e - b + 1);
  double* o = out.data();  // o[i - b] is S_i
  const double* x = x_.data();
  const double c = centre_;
  // The kept sum below b, and the chain from it up to the next kept sum (or e).
  std::size_t i = b / stride_ * stride_;
  double s = kept_[i / stride_];
  for (; i < b; ++i) s += x[i] - c;
  o[0] = s;
  const std::size_t aligned = std::min(e, (b + stride_ - 1) / stride_ * stride_);
  for (; i < aligned; ++i) o[i + 1 - b] = s += x[i] - c;
  if (i == e) return out;
  // From here i is a multiple of the stride. Whole spans between kept sums go four at a time:
  // each starts from its own kept sum, so the four chains of additions are independent and
  // overlap, where one chain waits on every addition.
  std::size_t k = i / stride_;
  for (const std::size_t k_end = k + (e - i) / stride_ / 4 * 4; k < k_end; k += 4) {
    const std::size_t i0 = k * stride_, w = stride_;
    const double* x0 = x + i0;
    double* o0 = o + (i0 + 1 - b);
    double s0 = kept_[k], s1 = kept_[k + 1], s2 = kept_[k + 2], s3 = kept_[k + 3];
    for (std::size_t j = 0; j < w; ++j) {
      o0[j] = s0 += x0[j] - c;
      o0[w + j] = s1 += x0[w + j] - c;
      o0[2 * w + j] = s2 += x0[2 * w + j] - c;
      o0[3 * w + j] = s3 += x0[3 * w + j] - c;
    }
  }
  i = k * stride_;
  s = kept_[k];
  for (; i < e; ++i) o[i + 1 - b] = s += x[i] - c;
  return out;
}

namespace {

// One q's running sums, fed S at b + t q for t = 0, 1, .., h in order. Each mirrors, operation for
// operation, the loop it replaces in subsession.cpp.
struct pooled_lag1_state {  // add_lag1_sums, one series, shift -grand
  double qq, shift, lo = 0, prev = 0, num = 0, den = 0;
  void take(std::size_t t, double v) {
    if (t == 0) {
      lo = v;
      return;
    }
    const double y = (v - lo) / qq + shift;
    lo = v;
    den += y * y;
    if (t >= 2) num += prev * y;
    prev = y;
  }
  // take(t, v[t q - from]) for t in [t, t_end).
  void take_run(const double* v, std::size_t from, std::size_t q, std::size_t t,
                std::size_t t_end) {
    for (; t < t_end && t < 2; ++t) take(t, v[t * q - from]);
    for (; t < t_end; ++t) {
      const double hi = v[t * q - from];
      const double y = (hi - lo) / qq + shift;
      lo = hi;
      den += y * y;
      num += prev * y;
      prev = y;
    }
  }
  std::optional<double> result(std::size_t, double) const {
    if (den == 0) return std::nullopt;
    return num / den;
  }
};

struct paired_lag1_state {  // prefix_lag1's two lanes, batches 2i+1 and 2i+2
  double inv, grand;
  std::size_t h;
  double s0 = 0, pending = 0, bound = 0;  // bound: lane 1's last upper sum
  double y1 = 0, den0 = 0, den1 = 0, num0 = 0, num1 = 0;
  void take(std::size_t t, double v) {
    if (t == 0) {
      s0 = v;
    } else if (t == 1) {
      const double first = (v - s0) * inv - grand;
      den0 = first * first;
      y1 = first;
      bound = v;
    } else if (t % 2 == 0 && t < h) {
      pending = v;
    } else if (t % 2 == 0) {  // t == h: the last batch, alone
      const double last = (v - bound) * inv - grand;
      den0 += last * last;
      num0 += y1 * last;
    } else {
      pair(pending, v);
    }
  }
  void pair(double a, double v) {
    const double next0 = (a - bound) * inv - grand;
    const double next1 = (v - a) * inv - grand;
    den0 += next0 * next0;
    den1 += next1 * next1;
    num0 += y1 * next0;
    num1 += next0 * next1;
    y1 = next1;
    bound = v;
  }
  // take(t, v[t q - from]) for t in [t, t_end), whole pairs in one loop.
  void take_run(const double* v, std::size_t from, std::size_t q, std::size_t t,
                std::size_t t_end) {
    while (t < t_end) {
      if (t >= 2 && t % 2 == 0 && t < h && t + 1 < t_end) {
        for (; t + 1 < t_end && t < h; t += 2) pair(v[t * q - from], v[(t + 1) * q - from]);
        continue;
      }
      take(t, v[t * q - from]);
      ++t;
    }
  }
  std::optional<double> result(std::size_t hh, double noise) const {
    const double total_den = den0 + den1, total_num = num0 + num1;
    if (total_den <= static_cast<double>(hh) * noise * noise) return std::nullopt;
    return total_num / total_den;
  }
};

template <class State, class Make>
std::vector<std::optional<double>> run_states(const sparse_prefix_sums& s, std::size_t b,
                                              std::size_t e, std::size_t q_first,
                                              std::size_t q_last, double noise, Make make) {
  const std::size_t length = e - b, count = q_last - q_first + 1;
  std::vector<std::optional<double>> out(count);
  std::vector<State> states;
  std::vector<std::size_t> hs;
  states.reserve(count);
  hs.reserve(count);
  for (std::size_t q = q_first; q <= q_last; ++q) {
    const std::size_t h = length / q;
    hs.push_back(h);
    states.push_back(make(q, h));
  }
  constexpr std::size_t chunk = 4096;
  s.for_each_chunk(b, e, chunk, [&](std::size_t first, std::span<const double> sums) {
    const std::size_t from = first - b, to = from + sums.size();  // offsets of this piece
    for (std::size_t k = 0; k < count; ++k) {
      const std::size_t q = q_first + k, h = hs[k];
      if (h < 2) continue;
      const std::size_t t_begin = (from + q - 1) / q, t_end = std::min(h + 1, (to - 1) / q + 1);
      if (t_begin < t_end) states[k].take_run(sums.data(), from, q, t_begin, t_end);
    }
  });
  for (std::size_t k = 0; k < count; ++k)
    if (hs[k] >= 2) out[k] = states[k].result(hs[k], noise);
  return out;
}

}  // namespace

std::vector<std::optional<double>> streamed_lag1(const sparse_prefix_sums& s, std::size_t b,
                                                 std::size_t e, std::size_t q_first,
                                                 std::size_t q_last, lag1_arithmetic how,
                                                 double noise) {
  if (q_first == 0 || q_last < q_first) return {};
  if (how == lag1_arithmetic::pooled) {
    if (b != 0) throw std::invalid_argument("streamed_lag1: the pooled form starts at S_0");
    return run_states<pooled_lag1_state>(
        s, b, e, q_first, q_last, noise, [&](std::size_t q, std::size_t h) {
          const double qq = static_cast<double>(q), hh = static_cast<double>(h);
          // pooled_lag1's grand mean, about the series' own centre (the offset term is 0)
          const double total = 0 + (s.at(h * q) + (s.centre() - s.centre()) * qq * hh);
          const double grand = total / (qq * hh);
          return pooled_lag1_state{qq, s.centre() - s.centre() - grand};
        });
  }
  const double base = s.at(b);
  return run_states<paired_lag1_state>(
      s, b, e, q_first, q_last, noise, [&](std::size_t q, std::size_t h) {
        const double qq = static_cast<double>(q), hh = static_cast<double>(h);
        const double grand = h == 0 ? 0 : (s.at(b + h * q) - base) / (qq * hh);
        return paired_lag1_state{1 / qq, grand, h};
      });
}

}  // namespace mcpilot
