#pragma once
// What "precise enough" means: the presets of the design and their overrides.

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace mcpilot {

enum class quantity_kind { ordinary, rate, proportion };

std::string_view to_string(quantity_kind k);
std::optional<quantity_kind> parse_quantity_kind(std::string_view s);

// How the interval is built on the batch means (docs/statistics.md, "The correlation-adjusted
// interval"). `adjusted` widens Pilot's t interval by the AR(1) variance inflation of the batch
// means' bias-corrected lag-1 autocorrelation; `pilot` is Pilot's t interval, number for number.
enum class interval_method { adjusted, pilot };

std::string_view to_string(interval_method m);
std::optional<interval_method> parse_interval_method(std::string_view s);

// What an ordinary quantity's interval is for (docs/statistics.md, "The median"): the mean of
// its stable readings, or their median with a distribution-free interval. Rates and proportions
// keep their own estimates.
enum class summary_statistic { mean, median };

std::string_view to_string(summary_statistic s);
std::optional<summary_statistic> parse_summary_statistic(std::string_view s);

struct precision {
  double autocorrelation_limit = 0.2;  // |rho_1(q)| allowed for the batch means
  double ci_perc = 0.10;               // whole interval width as a fraction of the mean
  std::optional<double> ci_abs;        // whole width in the quantity's unit; wins over ci_perc
  double confidence = 0.95;
  std::size_t min_samples = 50;  // minimum number of subsession means
  // Unset: the context's default, `adjusted` for analyze and stream-style sessions, `pilot` for
  // replication-style sessions (independent by construction, where Pilot's interval is exact).
  std::optional<interval_method> interval;
  summary_statistic statistic = summary_statistic::mean;
  // The skewness-adjusted interval gives no verdict while its two sides differ by more than this
  // factor: the adjustment is then too large a correction to trust (docs/statistics.md, "A
  // verdict waits for a small skewness adjustment"). Infinity turns the rule off.
  double max_side_ratio = 1.3;
};

// quick (0.8, 0.20, 30), normal (0.2, 0.10, 50), strict (0.1, 0.10, 200), all at 95%.
// nullopt for an unknown name.
std::optional<precision> preset(std::string_view name);

// The largest min_samples accepted: beyond 10^15 subsessions no run finishes, and products with
// the subsession size would overflow std::size_t.
inline constexpr std::size_t max_min_samples = 1'000'000'000'000'000;

// Throws input_error naming the field if a value is out of its range.
void validate(const precision& p);

}  // namespace mcpilot
