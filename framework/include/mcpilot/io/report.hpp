#pragma once
// The human view of results: a small aligned table, the interval written both ways
// (`194.9 [191.2, 198.6] (±1.9%)`), and what was discarded and why. Numbers carry as many digits
// as the interval resolves, no more.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "mcpilot/io/readings_csv.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/precision.hpp"
#include "mcpilot/stats/wps.hpp"

namespace mcpilot {

// x with the decimals that make `resolution` (e.g. the interval's half-width) show two
// significant digits (fixed notation unless |x| >= 1e9 or that needs more than 8 decimals);
// 4 significant digits, scientific outside 1e-3 <= |x| < 1e9, when resolution is 0 or not finite.
std::string format_number(double x, double resolution = 0);
// 0.019 -> "1.9%": two significant digits below 10%, whole percents above.
std::string format_percent(double fraction);
// What a quantity's mean is called: "mean", "harmonic mean" (rates) or "proportion".
std::string_view mean_label(quantity_kind k);
// The estimate an analysis reports: "median" under summary_statistic::median, else the kind's.
std::string_view mean_label(const analysis& a);
// A level or fraction the user chose, exactly: 0.95 -> "95%", 0.975 -> "97.5%".
std::string format_level(double fraction);
// p-values: two significant digits, scientific below 1e-3.
std::string format_p(double p);
// What an analysis left out of its interval, in words: "20 warm-up, 3 past the last whole
// subsession", "20 warm-up, 494 of an earlier level" (warmup_report::leading_warmup), or
// "nothing". The text report, the session summary and the HTML report all say it so.
std::string discarded_text(const analysis& a);
// What the readings removed at the start were: "warm-up", or "20 warm-up, then 494 of an earlier
// level" when the stable phase follows an earlier one (warmup_report::leading_warmup).
std::string removed_at_start_text(const analysis& a);
// "194.9 [191.2, 198.6] (±1.9%)"; an asymmetric interval gets "(-1.8%, +2.0%)", a missing upper
// end "[10.1, unbounded)". Without bounds, just the center. `relative = false` leaves out the
// percentages (for a difference, whose size relative to itself means nothing).
std::string format_interval(double center, std::optional<double> low, std::optional<double> high,
                            bool relative = true);

// Two aligned columns: label, value. Values may be long; they are not wrapped.
class report_table {
 public:
  void add(std::string label, std::string value);
  void write(std::ostream& out, std::size_t indent = 2) const;

 private:
  std::vector<std::pair<std::string, std::string>> rows_;
};

// Many aligned columns (the run and sweep tables, model listings, change-point segments): each
// column as wide as its widest cell, two spaces between, every line `indent` spaces in and
// without trailing spaces; a column is left-aligned where `left` says so, right-aligned
// otherwise.
void write_columns(std::ostream& out, const std::vector<std::vector<std::string>>& rows,
                   const std::vector<bool>& left, std::size_t indent = 0);

struct report_context {
  std::string source;      // file name as the user gave it
  std::string preset;      // name of the preset the requirements started from
  precision requirements;  // after overrides
  bool remove_warmup = true;
  const reading_positions* positions = nullptr;  // to name file lines; may be null
  bool keep_excursions = true;                   // off: --cut-excursions
};

// Title line, then the table: mean and interval, width against the target, readings used,
// discarded (warm-up, cool-down, remainder), subsession size and autocorrelations, required
// readings, converged or the reason why not.
void write_report(std::ostream& out, const analysis& a, const report_context& ctx);

// The WPS fit: rate with its asymmetric interval, intercept, slope, naive rate for comparison.
// The WPS fit's exclusion of short rounds in words ("12 rounds with work below 150: ...").
std::string short_rounds_note(const wps_fit& f, const char* one, const char* many);
void write_report(std::ostream& out, const wps_fit& f, const std::string& source,
                  double confidence);

}  // namespace mcpilot
