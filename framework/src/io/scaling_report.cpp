#include "mcpilot/io/scaling_report.hpp"

#include <cmath>
#include <cstdio>
#include <iomanip>
#include <optional>
#include <sstream>

#include "mcpilot/io/report.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

const char* const selection_note =
    "selection fractions count how often resampled data (rows drawn with replacement within each "
    "size) pick each shape: they measure how stable the choice is, not the probability that a "
    "shape is true. Rows within a size are treated as exchangeable independent runs.";

namespace {

template <class T>
nlohmann::ordered_json or_null(const std::optional<T>& v) {
  return v ? nlohmann::ordered_json(*v) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json finite_or_null(double v) {
  return std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr);
}

// A size as an integer when it is one (most are), so that JSON shows 128, not 128.0.
nlohmann::ordered_json size_json(double n) {
  if (n == std::floor(n) && std::abs(n) < 9.0e15)
    return nlohmann::ordered_json(static_cast<long long>(n));
  return nlohmann::ordered_json(n);
}

std::string weighting_name(scaling_weighting w) {
  return w == scaling_weighting::relative ? "relative (1/median^2)" : "unweighted";
}

std::string num(double x) {
  return format_number(x);
}
std::string num(const std::optional<double>& x) {
  return x ? format_number(*x) : "-";
}

// Fixed-width cells: the tables below have a fixed set of columns, so a width per column is all
// the alignment they need (report_table aligns the label/value summary).
std::string cells(std::initializer_list<std::pair<std::string, int>> row) {
  std::ostringstream os;
  bool first = true;
  for (const auto& [text, width] : row) {
    if (!first) os << "  ";
    first = false;
    if (width < 0)
      os << std::left << std::setw(-width) << text;
    else
      os << std::right << std::setw(width) << text;
  }
  std::string s = os.str();
  while (!s.empty() && s.back() == ' ') s.pop_back();
  return s;
}

// A selection fraction as a percentage with one decimal: 0.996 must not read as 100%.
std::string fraction(double f) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * f);
  return buf;
}

std::string models_text(const scaling_result& r) {
  std::string s;
  for (std::size_t i = 0; i < r.candidates.size(); ++i)
    s += (i ? ", " : "") + std::string(to_string(r.candidates[i].shape));
  return s + (r.exploratory ? " (exploratory: none pre-specified)" : " (pre-specified)");
}

}  // namespace

nlohmann::ordered_json to_json(const scaling_result& r, const scaling_source& s,
                               const scaling_options& o) {
  nlohmann::ordered_json sizes = nlohmann::ordered_json::array();
  for (const auto& z : r.sizes)
    sizes.push_back({{"n", size_json(z.n)},
                     {"count", z.count},
                     {"median", z.median},
                     {"mean", z.mean},
                     {"min", z.min},
                     {"max", z.max},
                     {"sd", or_null(z.sd)},
                     {"mad_rel", z.mad_rel}});
  nlohmann::ordered_json steps = nlohmann::ordered_json::array();
  for (const auto& st : r.steps)
    steps.push_back({{"n_from", size_json(st.n_from)},
                     {"n_to", size_json(st.n_to)},
                     {"ratio", st.ratio},
                     {"local_exponent", st.exponent}});
  nlohmann::ordered_json normalized = nlohmann::ordered_json::array();
  for (const auto& z : r.normalized)
    normalized.push_back({{"n", size_json(z.n)},
                          {"per_n", z.per_n},
                          {"per_n_log2_n", or_null(z.per_n_log_n)},
                          {"per_n2", z.per_n2}});
  nlohmann::ordered_json candidates = nlohmann::ordered_json::array();
  for (const auto& c : r.candidates) {
    const bool power = c.shape == scaling_shape::power_law;
    candidates.push_back({
        {"shape", std::string(to_string(c.shape))},
        {"formula", power ? "a*n^b" : "c*" + std::string(display_name(c.shape)) + "+d"},
        {"c", c.c},
        {"c_ci_low", or_null(c.c_low)},
        {"c_ci_high", or_null(c.c_high)},
        {"d", c.d},
        {"d_free", or_null(c.d_free)},
        {"exponent", or_null(c.exponent)},
        {"exponent_ci_low", or_null(c.exponent_low)},
        {"exponent_ci_high", or_null(c.exponent_high)},
        {"rms_log_residual", finite_or_null(c.rms_log_residual)},
        {"loso_error", c.loso_error ? finite_or_null(*c.loso_error) : nullptr},
        {"holdout_error", c.holdout_error ? finite_or_null(*c.holdout_error) : nullptr},
        {"within_gate", c.within_gate},
        {"lack_of_fit", c.lack_of_fit
                            ? nlohmann::ordered_json{{"f", finite_or_null(c.lack_of_fit->f)},
                                                     {"df_lack", c.lack_of_fit->df_lack},
                                                     {"df_pure", c.lack_of_fit->df_pure},
                                                     {"p", c.lack_of_fit->p}}
                            : nlohmann::ordered_json(nullptr)},
        {"passes", c.passes},
        {"note", c.note},
        {"selected", c.selected},
        {"selected_fraction", c.selected_fraction},
        {"selected_ci_low", c.selected_low},
        {"selected_ci_high", c.selected_high},
    });
  }
  nlohmann::ordered_json models = nlohmann::ordered_json::array();
  for (const auto& c : r.candidates) models.push_back(std::string(to_string(c.shape)));
  nlohmann::ordered_json rivals = nlohmann::ordered_json::array();
  for (const auto shape : r.rivals) rivals.push_back(std::string(to_string(shape)));
  return {
      {"source", s.file},
      {"n_column", s.n_column},
      {"value_column", s.value_column},
      {"quantity",
       s.quantity.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.quantity)},
      {"unit", s.unit.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(s.unit)},
      {"status", std::string(to_string(r.status))},
      {"label", std::string(to_string(r.label))},
      {"statement", r.statement},
      {"best", r.best ? nlohmann::ordered_json(std::string(to_string(*r.best)))
                      : nlohmann::ordered_json(nullptr)},
      {"rivals", std::move(rivals)},
      {"power_law_agrees", r.power_law_agrees},
      {"exploratory", r.exploratory},
      {"models", std::move(models)},
      {"design_problems", r.design_problems},
      {"warnings", r.warnings},
      {"notes", s.notes},
      {"relative_tolerance", o.relative_tolerance},
      {"gate", r.gate},
      {"lack_of_fit_level", o.lack_of_fit_level},
      {"nonnegative_fixed_cost", o.nonnegative_fixed_cost},
      {"confidence", o.confidence},
      {"weighting", o.weighting == scaling_weighting::relative ? "relative" : "unweighted"},
      {"bootstrap", r.bootstrap},
      {"seed", r.seed},
      {"rows", r.rows},
      {"skipped_rows", s.skipped_rows},
      {"sizes", std::move(sizes)},
      {"steps", std::move(steps)},
      {"normalized", std::move(normalized)},
      {"candidates", std::move(candidates)},
      {"selection_note", selection_note},
  };
}

void write_scaling_report(std::ostream& out, const scaling_result& r, const scaling_source& s,
                          const scaling_options& o) {
  const std::string what = s.quantity.empty() ? s.value_column : s.quantity;
  out << "scaling of " << s.file << ": " << what << " against " << s.n_column << ", " << r.rows
      << (r.rows == 1 ? " row" : " rows") << " at " << r.sizes.size()
      << (r.sizes.size() == 1 ? " size" : " sizes") << '\n';
  out << "  " << r.statement << "\n\n";

  report_table t;
  t.add("label", std::string(to_string(r.label)));
  if (r.best) {
    for (const auto& c : r.candidates) {
      if (c.shape != *r.best) continue;
      if (c.shape == scaling_shape::power_law)
        t.add(
            r.label == scaling_label::compatible ? "shape" : "best point fit",
            "a n^b: b = " +
                format_interval(c.exponent.value_or(NAN), c.exponent_low, c.exponent_high, false) +
                ", a = " + num(c.c));
      else
        t.add(r.label == scaling_label::compatible ? "shape" : "best point fit",
              std::string(display_name(c.shape)) +
                  ": c = " + format_interval(c.c, c.c_low, c.c_high, false) + ", d = " + num(c.d) +
                  " (T = c f(n) + d, log natural)");
    }
  }
  for (const auto& p : r.design_problems) t.add("insufficient design", p);
  t.add("candidates", models_text(r));
  t.add("fit", "least squares on the per-size medians, weighted " + weighting_name(o.weighting) +
                   "; the power law on log T against log n");
  t.add("validation gate", "log(1 + " + format_level(o.relative_tolerance) +
                               ") = " + format_number(r.gate) +
                               " on leave-one-size-out and largest-size holdout log errors");
  t.add("selection stability", r.bootstrap ? std::to_string(r.bootstrap) +
                                                 " resamples within each size, seed " +
                                                 std::to_string(r.seed)
                                           : std::string("not run (--bootstrap 0)"));
  if (s.skipped_rows) t.add("skipped rows", std::to_string(s.skipped_rows));
  t.write(out);

  if (!r.sizes.empty()) {
    out << "\nper size (" << (s.unit.empty() ? "values as recorded" : "in " + s.unit) << ")\n";
    out << "  "
        << cells({{"n", 12},
                  {"count", 6},
                  {"median", 11},
                  {"mean", 11},
                  {"min", 11},
                  {"max", 11},
                  {"sd", 11},
                  {"MAD/median", 10}})
        << '\n';
    for (const auto& z : r.sizes)
      out << "  "
          << cells({{format_size(z.n), 12},
                    {std::to_string(z.count), 6},
                    {num(z.median), 11},
                    {num(z.mean), 11},
                    {num(z.min), 11},
                    {num(z.max), 11},
                    {num(z.sd), 11},
                    {format_percent(z.mad_rel), 10}})
          << '\n';
  }
  if (!r.steps.empty()) {
    out << "\nadjacent sizes (medians)\n";
    out << "  " << cells({{"n from", 12}, {"n to", 12}, {"T ratio", 9}, {"local exponent", 14}})
        << '\n';
    for (const auto& st : r.steps)
      out << "  "
          << cells({{format_size(st.n_from), 12},
                    {format_size(st.n_to), 12},
                    {format_number(st.ratio), 9},
                    {format_number(st.exponent), 14}})
          << '\n';
    out << "\nnormalized medians\n";
    out << "  " << cells({{"n", 12}, {"T/n", 11}, {"T/(n log2 n)", 12}, {"T/n^2", 11}}) << '\n';
    for (const auto& z : r.normalized)
      out << "  "
          << cells({{format_size(z.n), 12},
                    {num(z.per_n), 11},
                    {num(z.per_n_log_n), 12},
                    {num(z.per_n2), 11}})
          << '\n';
  }
  if (!r.candidates.empty()) {
    out << "\ncandidates (log errors; gate " << format_number(r.gate) << ")\n";
    out << "  "
        << cells({{"shape", -10},
                  {"c (or b)", 11},
                  {"d (or a)", 11},
                  {"LOSO", 8},
                  {"holdout", 8},
                  {"passes", 6},
                  {"picked", 7},
                  {"95% Wilson", 15}})
        << '\n';
    for (const auto& c : r.candidates) {
      const bool power = c.shape == scaling_shape::power_law;
      const auto err = [](const std::optional<double>& e) { return e ? format_number(*e) : "-"; };
      out << "  "
          << cells({{std::string(to_string(c.shape)), -10},
                    {power ? num(c.exponent) : num(c.c), 11},
                    {power ? num(c.c) : num(c.d), 11},
                    {err(c.loso_error), 8},
                    {err(c.holdout_error), 8},
                    {c.passes ? "yes" : "no", 6},
                    {r.bootstrap ? fraction(c.selected_fraction) : "-", 7},
                    {r.bootstrap ? bracket_text(c.selected_low, c.selected_high, fraction) : "-",
                     15}})
          << (c.note.empty() ? "" : "  " + c.note) << '\n';
    }
  }
  if (!r.warnings.empty() || !s.notes.empty()) out << '\n';
  for (const auto& w : r.warnings) out << "warning: " << w << '\n';
  for (const auto& n : s.notes) out << "note: " << n << '\n';
  out << "\nnote: " << selection_note << '\n';
  out << "note: timing data never prove a complexity class; the label speaks only of the sizes "
         "measured, under the conditions they were measured in.\n";
}

}  // namespace mcpilot
