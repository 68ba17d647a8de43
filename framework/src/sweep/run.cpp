#include "mcpilot/sweep/run.hpp"

#include <algorithm>
#include <type_traits>
#include <variant>

#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot {

namespace {

// Severity for the worst-outcome rule: interrupted > input error > limit > done.
int severity(int code) {
  switch (code) {
    case exit_interrupted:
      return 3;
    case exit_input:
      return 2;
    case exit_limit:
      return 1;
    default:
      return 0;
  }
}

// The line of the grid through point `at` along axis `axis`: the point's coordinates on every other
// axis (none in zip mode, where all keys move together).
std::vector<std::size_t> line_of(const sweep_plan& plan, const std::vector<std::size_t>& at,
                                 std::size_t axis) {
  if (plan.mode == sweep_mode::zip) return {};
  std::vector<std::size_t> line = at;
  line.erase(line.begin() + static_cast<std::ptrdiff_t>(axis));
  return line;
}

struct stopped_line {
  std::size_t rule = 0;
  std::vector<std::size_t> line;
  std::size_t from = 0;  // the coordinate along the axis where the rule stopped it
  std::string reason;
};

class rule_book {
 public:
  rule_book(const sweep_plan& plan, std::vector<stop_axis_rule> rules) : plan_(plan) {
    for (auto& r : rules) {
      const auto it = std::find_if(plan.axes.begin(), plan.axes.end(),
                                   [&](const sweep_axis& a) { return a.key == r.axis; });
      if (it == plan.axes.end() || !r.stop) continue;
      axis_.push_back(static_cast<std::size_t>(it - plan.axes.begin()));
      rules_.push_back(std::move(r));
    }
  }

  // Why `next` is skipped, or nullopt to run it.
  std::optional<std::string> check(const sweep_point& next, std::span<const sweep_point> done) {
    const auto at = plan_.coordinates(next.index);
    for (const auto& s : stopped_) {
      const std::size_t axis = axis_[s.rule];
      if (at[axis] >= s.from && line_of(plan_, at, axis) == s.line) return s.reason;
    }
    if (rules_.empty()) return std::nullopt;
    // The rules see points as values and estimates (stop_axis.hpp), never the sweep's own types;
    // the finished points are converted once each.
    while (seen_.size() < done.size()) seen_.push_back(to_axis_point(done[seen_.size()]));
    const axis_point candidate = to_axis_point(next);
    for (std::size_t r = 0; r < rules_.size(); ++r) {
      auto reason = rules_[r].stop(candidate, seen_);
      if (!reason) continue;
      const std::string text = "stopped along " + rules_[r].axis + ": " + *reason;
      stopped_.push_back({r, line_of(plan_, at, axis_[r]), at[axis_[r]], text});
      return text;
    }
    return std::nullopt;
  }

 private:
  const sweep_plan& plan_;
  std::vector<stop_axis_rule> rules_;
  std::vector<std::size_t> axis_;
  std::vector<stopped_line> stopped_;
  std::vector<axis_point> seen_;
};

// "model.n = 8, model.algorithm = heap"
std::string label_of(const sweep_point& p) {
  std::string label;
  for (std::size_t i = 0; i < p.keys.size(); ++i)
    label += (i ? ", " : "") + p.keys[i] + " = " + to_string(p.values[i]);
  return label;
}

config_overrides with_point(const config_overrides& user, const sweep_plan& plan,
                            const sweep_point& p) {
  config_overrides o = user;
  for (std::size_t i = 0; i < plan.axes.size(); ++i) {
    const auto& a = plan.axes[i];
    const std::string text = toml_text(p.values[i]);
    o.point.push_back({a.key + "=" + text, a.where + ": [sweep] " + a.key + " = " + text +
                                               ", point " + std::to_string(p.index)});
  }
  return o;
}

void run_point(sweep_point& p, std::string_view text, const experiment_config& base,
               const model_registry& models, const config_overrides& overrides,
               const sweep_options& options, std::size_t total) {
  experiment_config cfg;
  try {
    cfg = parse_config(text, base.path, models, with_point(overrides, *base.sweep, p));
  } catch (const input_error& e) {
    p.status = point_status::failed;
    p.reason = e.what();
    // A value rejected in combination (tolerance >= disks) is named at the other field's line:
    // say which point it was.
    if (p.reason.find("[sweep]") == std::string::npos)
      p.reason = "at " + label_of(p) + ": " + p.reason;
    return;
  }
  cfg.settings.seed = p.seed;
  session_hooks hooks;
  hooks.interrupted = options.interrupted;
  if (options.on_round)
    hooks.on_round = [&](const session_progress& progress) {
      options.on_round(p, total, progress);
    };
  p.analytic = cfg.instance->analytic();
  p.facts = cfg.instance->model_facts();
  p.spec = cfg.spec;
  p.result = run_session(*cfg.instance, cfg.spec, cfg.settings, hooks);
  p.status = point_status::ran;
}

// Reads every point's config before any runs: a point this machine cannot hold refuses the sweep
// (resource_error, exit 2) naming the point, and the others' estimates are summed. O(points)
// config reads, each a fraction of a millisecond.
sweep_estimate estimate_sweep(const experiment_config& base, std::string_view text,
                              const model_registry& models, const config_overrides& overrides,
                              const std::vector<stop_axis_rule>& rules) {
  const sweep_plan& plan = *base.sweep;
  sweep_estimate e;
  e.points = plan.size();
  for (std::size_t k = 0; k < plan.size(); ++k) {
    sweep_point p;
    p.index = k;
    for (const auto& a : plan.axes) p.keys.push_back(a.key);
    p.values = plan.point(k);
    experiment_config cfg;
    try {
      cfg = parse_config(text, base.path, models, with_point(overrides, plan, p));
    } catch (const resource_error& err) {
      throw resource_error("the sweep is refused before it starts: point " + std::to_string(k) +
                           " (" + label_of(p) + ") cannot run here: " + err.what());
    } catch (const input_error&) {
      ++e.rejected_points;  // reported when the point's turn comes, as a failed point
      continue;
    }
    const resource_estimate r = cfg.instance->estimate();
    if (r.bytes > e.peak_bytes) {
      e.peak_bytes = r.bytes;
      e.peak_point = k;
      e.basis = r.basis;
    } else if (e.basis.empty()) {
      e.basis = r.basis;
    }
    const std::size_t min_samples = cfg.settings.engine.session_precision.min_samples;
    // The engine's first round: 100 readings, or twice the minimum sample (engine.cpp).
    const std::uint64_t readings = std::max<std::uint64_t>(100, 2 * min_samples);
    e.readings_per_point = std::max(e.readings_per_point, readings);
    const double seconds = static_cast<double>(readings) * r.seconds_per_reading;
    const axis_point ap = to_axis_point(p);
    const bool stoppable = std::any_of(rules.begin(), rules.end(), [&](const stop_axis_rule& rule) {
      return std::find_if(plan.axes.begin(), plan.axes.end(),
                          [&](const sweep_axis& a) { return a.key == rule.axis; }) !=
                 plan.axes.end() &&
             (!rule.applies || rule.applies(ap));
    });
    (stoppable ? e.stoppable_seconds : e.certain_seconds) += seconds;
  }
  return e;
}

}  // namespace

axis_point to_axis_point(const sweep_point& p) {
  axis_point a;
  for (std::size_t i = 0; i < p.keys.size() && i < p.values.size(); ++i)
    a.values.emplace_back(p.keys[i], p.values[i]);
  if (p.result)
    for (const auto& q : p.result->quantities)
      a.estimates[q.name] = {q.stats.mean, q.stats.ci_low, q.stats.ci_high, q.stats.converged};
  return a;
}

std::string_view to_string(point_status s) {
  switch (s) {
    case point_status::ran:
      return "ran";
    case point_status::failed:
      return "failed";
    case point_status::skipped:
      return "skipped";
    case point_status::not_run:
      break;
  }
  return "not_run";
}

const param_value* sweep_point::value(std::string_view key) const {
  for (std::size_t i = 0; i < keys.size() && i < values.size(); ++i)
    if (keys[i] == key) return &values[i];
  return nullptr;
}

std::optional<double> sweep_point::number(std::string_view key) const {
  const param_value* v = value(key);
  if (!v) return std::nullopt;
  if (const auto* i = std::get_if<std::int64_t>(v)) return static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(v)) return *d;
  return std::nullopt;
}

const quantity_result* sweep_point::quantity(std::string_view name) const {
  if (!result) return nullptr;
  for (const auto& q : result->quantities)
    if (q.name == name) return &q;
  return nullptr;
}

int sweep_point::exit_code() const {
  switch (status) {
    case point_status::failed:
      return exit_input;
    case point_status::not_run:
      return exit_interrupted;
    case point_status::skipped:
      return exit_ok;
    case point_status::ran:
      break;
  }
  if (result->stopped_because == stop_reason::interrupted) return exit_interrupted;
  if (result->error) return exit_input;
  if (!result->quantities.empty() && result->all_required_converged()) return exit_ok;
  return exit_limit;
}

int sweep_result::exit_code() const {
  int worst = interrupted ? exit_interrupted : exit_ok;
  for (const auto& p : points)
    if (severity(p.exit_code()) > severity(worst)) worst = p.exit_code();
  return worst;
}

sweep_result run_sweep(const experiment_config& base, std::string_view config_text,
                       const model_registry& models, const config_overrides& overrides,
                       const sweep_options& options) {
  if (!base.sweep) throw std::logic_error("run_sweep: the config has no [sweep]");
  const sweep_plan& plan = *base.sweep;
  const std::size_t total = plan.size();
  std::vector<std::string> keys;
  for (const auto& a : plan.axes) keys.push_back(a.key);

  std::vector<std::size_t> indices;
  if (options.only_point) {
    if (*options.only_point >= total)
      throw input_error("--point " + std::to_string(*options.only_point) + ": the sweep has " +
                        std::to_string(total) + " points, 0 to " + std::to_string(total - 1));
    indices.push_back(*options.only_point);
  } else {
    for (std::size_t k = 0; k < total; ++k) indices.push_back(k);
  }

  std::vector<stop_axis_rule> rules;
  if (!options.only_point) {
    rules = base.instance->stop_axis_rules();
    rules.insert(rules.end(), options.rules.begin(), options.rules.end());
  }
  if (!options.only_point) {
    const sweep_estimate e = estimate_sweep(base, config_text, models, overrides, rules);
    if (options.on_estimate) options.on_estimate(e);
  }
  rule_book book(plan, std::move(rules));

  sweep_result out;
  out.points.reserve(indices.size());
  for (std::size_t k : indices) {
    sweep_point p;
    p.index = k;
    p.keys = keys;
    p.values = plan.point(k);
    p.seed = point_seed(base.settings.seed, k);
    if (out.interrupted || (options.interrupted && options.interrupted->raised())) {
      out.interrupted = true;
      p.reason = "the sweep was interrupted before this point";
      out.points.push_back(std::move(p));
      continue;
    }
    if (auto reason = book.check(p, out.points)) {
      p.status = point_status::skipped;
      p.reason = std::move(*reason);
      out.points.push_back(std::move(p));
      continue;
    }
    if (options.on_point) options.on_point(p, total);
    run_point(p, config_text, base, models, overrides, options, total);
    if (p.result && p.result->stopped_because == stop_reason::interrupted) out.interrupted = true;
    out.points.push_back(std::move(p));
    if (options.on_point_done) options.on_point_done(out);
  }
  return out;
}

}  // namespace mcpilot
