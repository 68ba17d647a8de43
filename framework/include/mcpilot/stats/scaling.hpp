#pragma once
// Empirical scaling: how a measured cost (a time, usually) grows with an input size n, over the
// sizes measured and nothing beyond them. The method is docs/scaling.md's:
//
//   1. per-size summaries, then every statement rests on the per-size medians;
//   2. adjacent ratios T(n_i)/T(n_{i-1}) and local exponents p_i = log(T_i/T_{i-1}) /
//   log(n_i/n_{i-1});
//   3. normalized ratios T/n, T/(n log2 n), T/n^2;
//   4. candidate shapes, each a basis function f(n) fitted as c f(n) + d by weighted least squares
//      on the medians with the fixed cost d >= 0 (the free power law a n^b by least squares on
//      log T against log n);
//   5. two validation errors per shape on the log scale: leave-one-size-out and the holdout
//      (fit all but the largest size, predict the largest), and a lack-of-fit F test against the
//      spread of the runs within each size;
//   6. selection stability: resample the rows within each size, take the medians again, and
//      count which shape the same selection rule picks;
//   7. a label with the rules of docs/scaling.md. Timing data never proves a complexity class:
//      the strongest label says a shape is *compatible* with the data over the observed range.
//
// Everything here is a pure function of its arguments (the bootstrap draws from Philox streams
// keyed by (seed, resample index)), so a result depends only on the data, options and seed.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace mcpilot {

// ---- shapes: the table from a name to a basis function --------------------------------------

enum class scaling_shape { constant, log_n, linear, n_log_n, quadratic, cubic, power_law };

// Every shape, in the order reports list them (slowest growth first, the power law last).
std::span<const scaling_shape> all_scaling_shapes();
// The --models name: constant, log_n, linear, n_log_n, quadratic, cubic, power_law.
std::string_view to_string(scaling_shape s);
// nullopt for an unknown name.
std::optional<scaling_shape> parse_scaling_shape(std::string_view name);
// For people: "constant", "log n", "n", "n log n", "n^2", "n^3", "a*n^b".
std::string_view display_name(scaling_shape s);
// The basis f(n) of a fixed shape (log is natural; the base only rescales c). For constant, 1;
// for power_law, NaN (its basis is fitted, not fixed).
double scaling_basis(scaling_shape s, double n);

// ---- the fitter taking a basis ------------------------------------------------------------

// y ~ c x + d by weighted least squares: minimises sum w_i (y_i - c x_i - d)^2.
struct line_fit {
  double c = 0;
  double d = 0;
  std::optional<double> c_low, c_high;  // t interval on k - 2 df; none when k < 3
  double residual_sd = 0;               // sqrt(sum w r^2 / (k - 2)); 0 when k < 3
  bool identified = false;              // false when every x is equal (the slope is not defined)
};

// Generalises stats/wps.hpp's intercept-and-slope fit to weights: means, cross products and the
// residual sum are taken with weights w (which only need to be positive; their scale cancels).
// The interval is c +- t*_{k-2} sqrt(s^2 / Sxx_w), s^2 = sum w r^2 / (k - 2): the usual weighted
// least squares interval when the weights are proportional to 1/variance. Needs k >= 2 points;
// with one distinct x returns identified = false and d = the weighted mean. Throws
// std::invalid_argument when the spans differ in length or are empty. O(k), in long double.
line_fit fit_line(std::span<const double> x, std::span<const double> y, std::span<const double> w,
                  double confidence);

// ---- the analysis ---------------------------------------------------------------------------

// How the c f(n) + d fits weight the sizes. relative (1/median^2) minimises relative errors, so
// the smallest sizes count as much as the largest; unweighted lets the largest sizes dominate,
// and then a small error in d is a large relative error at the smallest sizes. docs/scaling.md
// gives the known-answer test that made relative the default.
enum class scaling_weighting { relative, unweighted };

struct scaling_options {
  // The candidates. Empty means every built-in shape, and the run is *exploratory*.
  std::vector<scaling_shape> models;
  std::size_t bootstrap = 1000;  // within-size resamples; 0 skips the stability step
  std::uint64_t seed = 1;
  double relative_tolerance = 0.25;  // epsilon: the gate is log(1 + epsilon)
  double confidence = 0.95;          // for c's interval and the Wilson intervals
  scaling_weighting weighting = scaling_weighting::relative;
  // A local exponent further than this from the median local exponent is reported as a jump.
  double exponent_jump = 0.5;
  // The stability rules of the label: the best passing shape's selection fraction must have its
  // Wilson interval above `majority`, and every other candidate's, passing or not, must stay
  // below `rival`; otherwise the result is ambiguous.
  double majority = 0.5;
  double rival = 0.05;
  // A fixed cost is never negative: c f(n) + d is fitted with d >= 0 (when the free fit's d is
  // negative, the fit is redone through the origin and the candidate says so). false fits d
  // freely, for comparison.
  bool nonnegative_fixed_cost = true;
  // A shape whose lack-of-fit F test against the spread within sizes has p below this level does
  // not pass (docs/scaling.md justifies 0.001); 0 turns the test off.
  double lack_of_fit_level = 0.001;
};

struct scaling_size {
  double n = 0;
  std::size_t count = 0;
  double median = 0, mean = 0, min = 0, max = 0;
  std::optional<double> sd;   // sample standard deviation; none when count < 2
  double mad_rel = 0;         // median absolute deviation / median: the robust dispersion
  std::size_t first_row = 0;  // index of the first row at this size, to name it
};

struct scaling_step {  // between sizes i-1 and i
  double n_from = 0, n_to = 0;
  double ratio = 0;     // T_i / T_{i-1} (medians)
  double exponent = 0;  // p_i
};

struct scaling_normalized {
  double n = 0;
  double per_n = 0;                   // T / n
  std::optional<double> per_n_log_n;  // T / (n log2 n); none at n = 1
  double per_n2 = 0;                  // T / n^2
};

// The lack-of-fit F test of a shape against pure error: the fit's departures from the per-size
// means, against the spread of the runs about them (docs/scaling.md).
struct lack_of_fit_test {
  double f = 0;
  std::size_t df_lack = 0, df_pure = 0;
  double p = 1;  // P(F(df_lack, df_pure) > f)
};

struct scaling_candidate {
  scaling_shape shape = scaling_shape::linear;
  // c f(n) + d; for the power law a n^b: c = a, exponent = b, d = 0.
  double c = 0, d = 0;
  // The free fit's d when it was negative and d was set to 0 (the fit refitted through the
  // origin); none otherwise.
  std::optional<double> d_free;
  std::optional<double> c_low, c_high;  // c's interval; none for the power law (see exponent_*)
  std::optional<double> exponent, exponent_low, exponent_high;  // power law only
  double rms_log_residual = 0;                                  // in-sample, over every size
  // Leave-one-size-out: the root mean square over sizes of |log(predicted / median)|, each size
  // predicted by a fit to the others. none when the others cannot identify the fit (k < 3).
  std::optional<double> loso_error;
  // |log(predicted / median)| at the largest size, fitted on the smaller ones (the largest
  // size's own term of the leave-one-size-out sum).
  std::optional<double> holdout_error;
  std::optional<lack_of_fit_test> lack_of_fit;  // none without 2 runs at some size
  bool within_gate = false;  // both errors within log(1 + epsilon), predictions > 0
  bool passes = false;       // within the gate, and no significant lack of fit
  std::size_t selected = 0;  // bootstrap resamples that picked it
  double selected_fraction = 0;
  double selected_low = 0, selected_high = 0;  // Wilson interval of that fraction
  std::string note;                            // why it fails, when it does
};

enum class scaling_label { compatible, insufficient_design, none_adequate, ambiguous };
// "compatible-over-observed-range", "insufficient-design", "none-adequate", "ambiguous".
std::string_view to_string(scaling_label l);

enum class scaling_status { ok, too_few_sizes };
std::string_view to_string(scaling_status s);

struct scaling_result {
  scaling_status status = scaling_status::ok;  // too_few_sizes: fewer than 2 sizes, nothing fit
  bool exploratory = false;
  std::size_t rows = 0;
  std::vector<scaling_size> sizes;  // ascending n
  std::vector<scaling_step> steps;  // sizes.size() - 1 of them
  std::vector<scaling_normalized> normalized;
  std::vector<scaling_candidate> candidates;  // in the order of all_scaling_shapes()
  std::size_t bootstrap = 0;                  // resamples drawn
  std::uint64_t seed = 0;
  double gate = 0;  // log(1 + epsilon)
  scaling_label label = scaling_label::insufficient_design;
  std::optional<scaling_shape> best;  // the shape the label speaks of (the best point fit
                                      // when the design is insufficient)
  // The other candidates that the resamples pick too often for the label to be stable (their
  // Wilson interval reaches options.rival), passing or not: an ambiguous label names them.
  std::vector<scaling_shape> rivals;
  // The free power law's exponent interval holds the best shape's exponent (n: 1, n^2: 2, ...):
  // the two describe the same growth, so the power law is no rival and its picks count as best's.
  bool power_law_agrees = false;
  std::vector<std::string> design_problems;  // why insufficient-design, one reason each
  std::vector<std::string> warnings;
  std::string statement;  // one sentence for people, in the wording of docs/scaling.md
};

// The whole analysis of rows (n_j, t_j). Contract: both spans the same length; every n and t
// finite and > 0 (a log scale), otherwise reading_error names the first bad row's index.
// Fewer than 2 distinct sizes gives status too_few_sizes with only the per-size summaries.
// Cost: O(R log R) for R rows, plus O(B (R + S k^2)) for B resamples, S shapes and k sizes
// (each resample refits every shape once per left-out size). Memory O(R + B S).
scaling_result analyze_scaling(std::span<const double> n, std::span<const double> t,
                               const scaling_options& options);

// The selection rule the bootstrap repeats, exposed for tests: fits every candidate to the
// medians (x ascending, distinct) and returns the validation errors. A shape with no LOSO error
// (too few sizes) is never selected. O(S k^2).
struct shape_validation {
  std::optional<double> loso_error, holdout_error;
};
std::vector<shape_validation> validate_shapes(std::span<const double> sizes,
                                              std::span<const double> medians,
                                              std::span<const scaling_shape> shapes,
                                              scaling_weighting weighting,
                                              bool nonnegative_fixed_cost = true);

// The shape a point fit c f(n) + d (or a n^b) predicts at n, from a fit to (sizes, medians).
// nullopt when the fit is not identified. O(k).
struct shape_fit {
  double c = 0, d = 0;
  std::optional<double> d_free;  // the free fit's negative d, when d >= 0 set it to 0
  std::optional<double> c_low, c_high;
  std::optional<double> exponent, exponent_low, exponent_high;
  double predict(scaling_shape s, double n) const;
};
// With nonnegative_fixed_cost, a free fit whose d < 0 is redone through the origin: c =
// sum w x y / sum w x^2, with its t interval on k - 1 df (the least-squares solution under
// d >= 0, which then lies on the boundary).
std::optional<shape_fit> fit_shape(scaling_shape s, std::span<const double> sizes,
                                   std::span<const double> medians, scaling_weighting weighting,
                                   double confidence, bool nonnegative_fixed_cost = true);

// The lack-of-fit F test of shape s on rows (n_j, t_j) grouped by size: the weighted least-squares
// fit of c f(n) + d (d >= 0 with nonnegative_fixed_cost) to the k per-size means with weights
// n_i w_i, w_i = 1 / median_i^2 (relative) or 1; pure error SS_pe = sum_i w_i sum_j (t_ij -
// mean_i)^2 on N - k df, lack of fit SS_lof = sum_i n_i w_i (mean_i - fit_i)^2 on k - p df (p the
// fitted coefficients: 2, or 1 for the constant and for a fit through the origin), and
// F = (SS_lof / (k - p)) / (SS_pe / (N - k)). The power law is tested on log t, unweighted. Under
// the shape, with normal errors whose sd is proportional to the median (relative) or constant,
// F ~ F(k - p, N - k). nullopt when no size has 2 rows, k <= p, or the pure error is 0. Throws
// like analyze_scaling on bad rows. O(R log R).
std::optional<lack_of_fit_test> lack_of_fit(scaling_shape s, std::span<const double> n,
                                            std::span<const double> t, scaling_weighting weighting,
                                            bool nonnegative_fixed_cost = true);

// The exponent of a pure power shape: 0 for constant, 1 for n, 2 for n^2, 3 for n^3; none for
// log n, n log n and the power law itself.
std::optional<double> shape_exponent(scaling_shape s);

// "empirically compatible with n log n over n = 128 to 65,536 under the recorded conditions"
// and the other labels' sentences; never "is O(...)".
std::string scaling_statement(const scaling_result& r);

// 65536 -> "65,536"; a non-integer n keeps 4 significant digits.
std::string format_size(double n);

}  // namespace mcpilot
