#include "mcpilot/io/sweep_output.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>
#include <set>
#include <variant>

#include "mcpilot/cli.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/io/session_output.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

namespace {

std::string table_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

// The shortest text that reads back as the same double; empty for none.
std::string exact_text(std::optional<double> v) {
  return !v || std::isnan(*v) ? "" : number_text(*v);
}

// A swept value as a table cell: numbers exactly, strings without their TOML quotes.
std::string value_text(const param_value& v) {
  if (const auto* d = std::get_if<double>(&v)) return exact_text(*d);
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  return to_string(v);
}

nlohmann::ordered_json value_json(const param_value& v) {
  return std::visit([](const auto& x) { return nlohmann::ordered_json(x); }, v);
}

// What a point that produced no result says in its stopped_because: one line, so that a
// line-based CSV reader takes it whole.
std::string not_ran_text(const sweep_point& p) {
  std::string text;
  switch (p.status) {
    case point_status::failed:
      text = "failed: " + p.reason;
      break;
    case point_status::skipped:
      text = "skipped: " + p.reason;
      break;
    default:
      text = "not run: " + (p.reason.empty() ? std::string("interrupted") : p.reason);
  }
  for (char& c : text)
    if (c == '\n' || c == '\r') c = ' ';
  return text;
}

std::optional<double> analytic_of(const sweep_point& p, const std::string& name) {
  const auto it = p.analytic.find(name);
  if (it == p.analytic.end()) return std::nullopt;
  return it->second;
}

// The quantities the human table shows: the required ones (all, when none is required).
std::vector<const quantity_spec*> shown_quantities(const model_spec& spec) {
  std::vector<const quantity_spec*> out;
  for (const auto& q : spec.quantities())
    if (q.required) out.push_back(&q);
  if (out.empty())
    for (const auto& q : spec.quantities()) out.push_back(&q);
  return out;
}

}  // namespace

std::string point_label(const sweep_point& p) {
  std::string s;
  for (std::size_t i = 0; i < p.keys.size(); ++i) {
    if (i) s += ", ";
    s += p.keys[i] + " = " + to_string(p.values[i]);
  }
  return s;
}

void write_sweep_csv(std::ostream& out, const sweep_result& r, const experiment_config& base) {
  const sweep_plan& plan = *base.sweep;
  out << "point";
  for (const auto& a : plan.axes) out << ',' << table_field(a.key);
  out << ",quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,stopped_because,"
         "analytic\n";
  for (const auto& p : r.points) {
    std::string prefix = std::to_string(p.index);
    for (const auto& v : p.values) prefix += ',' + table_field(value_text(v));
    if (p.result) {
      for (const auto& q : p.result->quantities) {
        const analysis& a = q.stats;
        out << prefix << ',' << table_field(q.name) << ',' << exact_text(a.mean) << ','
            << exact_text(a.ci_low) << ',' << exact_text(a.ci_high) << ','
            << exact_text(a.ci_width_rel) << ',' << a.n << ',' << (a.converged ? "true" : "false")
            << ',' << to_string(p.result->stopped_because) << ','
            << exact_text(analytic_of(p, q.name)) << '\n';
      }
      continue;
    }
    for (const auto& q : base.spec.quantities())
      out << prefix << ',' << table_field(q.name) << ",,,,,,," << table_field(not_ran_text(p))
          << ",\n";
  }
}

nlohmann::ordered_json to_json(const sweep_result& r, const experiment_config& base,
                               const nlohmann::ordered_json& environment) {
  const sweep_plan& plan = *base.sweep;
  nlohmann::ordered_json keys = nlohmann::ordered_json::array();
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  nlohmann::ordered_json geometric = nlohmann::ordered_json::object();
  for (const auto& a : plan.axes) {
    keys.push_back(a.key);
    auto& list = values[a.key] = nlohmann::ordered_json::array();
    for (const auto& v : a.values) list.push_back(value_json(v));
    geometric[a.key] = a.geometric;
  }
  nlohmann::ordered_json points = nlohmann::ordered_json::array();
  for (const auto& p : r.points) {
    nlohmann::ordered_json j = {{"point", p.index}};
    auto& vals = j["values"] = nlohmann::ordered_json::object();
    for (std::size_t i = 0; i < p.keys.size(); ++i) vals[p.keys[i]] = value_json(p.values[i]);
    j["seed"] = p.seed;
    j["status"] = std::string(to_string(p.status));
    j["reason"] =
        p.reason.empty() ? nlohmann::ordered_json(nullptr) : nlohmann::ordered_json(p.reason);
    if (p.result) {
      session_metadata meta;
      meta.seed = p.seed;
      meta.analytic = p.analytic;
      meta.facts = p.facts;
      nlohmann::ordered_json session = to_json(*p.result, meta);
      session.erase("seed");
      session.erase("config");
      session.erase("environment");
      j.update(session);
    } else {
      j["converged"] = false;
      j["stopped_because"] = std::string(to_string(p.status));
      j["quantities"] = nlohmann::ordered_json::array();
    }
    points.push_back(std::move(j));
  }
  return {{"sweep",
           {{"mode", plan.mode == sweep_mode::zip ? "zip" : "product"},
            {"keys", std::move(keys)},
            {"values", std::move(values)},
            {"geometric", std::move(geometric)},
            {"points", plan.size()}}},
          {"exit_code", r.exit_code()},
          {"stopped_because", r.interrupted ? "interrupted" : "completed"},
          {"seed", base.settings.seed},
          {"points", std::move(points)},
          {"config", base.resolved},
          {"environment", environment}};
}

void write_sweep_table(std::ostream& out, const sweep_result& r, const experiment_config& base) {
  const sweep_plan& plan = *base.sweep;
  out << base.name << ": model " << base.model_name << ", sweep of " << plan.size() << " points ("
      << (plan.mode == sweep_mode::zip ? "zip" : "product") << " of";
  for (std::size_t i = 0; i < plan.axes.size(); ++i)
    out << (i ? (plan.mode == sweep_mode::zip ? " with " : " x ") : " ") << plan.axes[i].key << " ("
        << plan.axes[i].values.size() << ")";
  out << "), seed " << base.settings.seed << " (each point its own), preset " << base.preset
      << "\n\n";

  const auto shown = shown_quantities(base.spec);
  std::vector<bool> exact(shown.size(), false);
  for (std::size_t c = 0; c < shown.size(); ++c)
    for (const auto& p : r.points) exact[c] = exact[c] || analytic_of(p, shown[c]->name);

  std::vector<std::vector<std::string>> rows(1);
  std::vector<bool> left;
  auto header = [&](std::string h, bool l) {
    rows[0].push_back(std::move(h));
    left.push_back(l);
  };
  header("point", false);
  for (const auto& a : plan.axes) header(a.key, false);
  for (std::size_t c = 0; c < shown.size(); ++c) {
    header(shown[c]->name + (shown[c]->unit.empty() ? "" : " (" + shown[c]->unit + ")"), true);
    if (exact[c]) {
      header("exact", false);
      header("covered", true);
    }
  }
  header("readings", false);
  header("stopped", true);

  for (const auto& p : r.points) {
    std::vector<std::string> row = {std::to_string(p.index)};
    for (const auto& v : p.values) row.push_back(value_text(v));
    for (std::size_t c = 0; c < shown.size(); ++c) {
      const quantity_result* q = p.quantity(shown[c]->name);
      std::string cell = "-";
      if (q && q->stats.mean)
        cell = format_interval(*q->stats.mean, q->stats.ci_low, q->stats.ci_high);
      if (q && !q->stats.converged && q->stats.mean) cell += " *";
      row.push_back(cell);
      if (!exact[c]) continue;
      const auto e = analytic_of(p, shown[c]->name);
      const auto covered = q && e ? covers(q->stats, *e) : std::nullopt;
      row.push_back(e ? format_number(*e) : "-");
      row.push_back(covered ? (*covered ? "yes" : "no") : "-");
    }
    row.push_back(p.result ? std::to_string(p.result->replications) : "-");
    row.push_back(
        std::string(p.result ? to_string(p.result->stopped_because) : to_string(p.status)));
    rows.push_back(std::move(row));
  }
  write_columns(out, rows, left);

  bool unconverged = false;
  for (const auto& p : r.points)
    for (const auto* s : shown)
      if (const auto* q = p.quantity(s->name); q && q->stats.mean && !q->stats.converged)
        unconverged = true;
  out << '\n';
  if (unconverged) out << "* not converged: the interval obtained when the point stopped\n";
  std::size_t counts[4] = {0, 0, 0, 0};
  std::size_t converged = 0;
  std::optional<std::chrono::system_clock::time_point> first, last;
  for (const auto& p : r.points) {
    ++counts[static_cast<int>(p.status)];
    if (!p.result) continue;
    if (p.exit_code() == exit_ok) ++converged;
    if (!first || p.result->start < *first) first = p.result->start;
    if (!last || p.result->end > *last) last = p.result->end;
  }
  out << counts[0] << " ran (" << converged << " converged), " << counts[1] << " failed, "
      << counts[2] << " skipped";
  if (counts[3]) out << ", " << counts[3] << " not run (interrupted)";
  if (first && last)
    out << "; " << duration_text(std::chrono::duration<double>(*last - *first).count())
        << " from the first point's start to the last's end";
  out << '\n';
  for (const auto& p : r.points) {
    if (p.status == point_status::ran && p.result->error)
      out << "point " << p.index << ": error: " << *p.result->error << '\n';
    else if (p.status == point_status::failed || p.status == point_status::skipped)
      out << "point " << p.index << ": " << not_ran_text(p) << '\n';
  }
}

}  // namespace mcpilot
