#include "mcpilot/io/session_output.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <variant>
#include <vector>

#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/csv_table.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/measure/measurement.hpp"
#include "mcpilot/number_text.hpp"

namespace mcpilot {

namespace {

std::string interval_text(const analysis& a, double resolution) {
  if (!a.ci_low) return "-";
  std::string s = "[" + format_number(*a.ci_low, resolution) + ", ";
  s += a.ci_high ? format_number(*a.ci_high, resolution) + "]" : std::string("unbounded)");
  if (a.one_sided) s += " one-sided";
  if (a.constant) s += " constant";
  return s;
}

}  // namespace

nlohmann::ordered_json to_json(const std::vector<model_fact>& facts) {
  nlohmann::ordered_json j = nlohmann::ordered_json::object();
  for (const auto& f : facts) std::visit([&](const auto& v) { j[f.name] = v; }, f.value);
  return j;
}

std::string to_string(const model_fact::value_type& value) {
  auto number = [&](double v) { return format_number(v, 0); };
  return std::visit(
      [&](const auto& v) -> std::string {
        using T = std::decay_t<decltype(v)>;
        if constexpr (std::is_same_v<T, bool>) {
          return v ? "yes" : "no";
        } else if constexpr (std::is_same_v<T, std::int64_t>) {
          return std::to_string(v);
        } else if constexpr (std::is_same_v<T, double>) {
          return number_text(v);
        } else if constexpr (std::is_same_v<T, std::string>) {
          return v;
        } else {
          std::string s = "[";
          for (std::size_t i = 0; i < v.size(); ++i) {
            if (i) s += ", ";
            if constexpr (std::is_same_v<T, std::vector<double>>)
              s += number(v[i]);
            else
              s += std::to_string(v[i]);
          }
          return s + "]";
        }
      },
      value);
}

std::optional<bool> covers(const analysis& a, double exact) {
  if (!a.ci_low) return std::nullopt;
  return *a.ci_low <= exact && (!a.ci_high || exact <= *a.ci_high);
}

nlohmann::ordered_json to_json(const session_result& r, const session_metadata& m) {
  nlohmann::ordered_json quantities = nlohmann::ordered_json::array();
  for (const auto& q : r.quantities) {
    nlohmann::ordered_json j = {
        {"name", q.name}, {"unit", q.unit}, {"required", q.required}, {"derived", q.derived}};
    j.update(to_json(q.stats));
    const auto a = m.analytic.find(q.name);
    j["analytic"] = nullptr;
    j["analytic_covered"] = nullptr;
    if (a != m.analytic.end()) {
      j["analytic"] = a->second;
      if (const auto c = covers(q.stats, a->second)) j["analytic_covered"] = *c;
    }
    j["requirements"] = to_json(q.requirements);
    quantities.push_back(std::move(j));
  }
  const bool stream_style = r.readings && r.readings->stream_style();
  nlohmann::ordered_json environment = m.environment;
  if (r.measurement) environment["measurement"] = to_json(*r.measurement);
  return {
      {"converged", r.all_required_converged() && !r.quantities.empty()},
      {"stopped_because", to_string(r.stopped_because)},
      {"error", r.error ? nlohmann::ordered_json(*r.error) : nlohmann::ordered_json(nullptr)},
      {"replications", r.replications},
      {"rounds", r.rounds},
      {"style", stream_style ? "stream" : "replication"},
      {"streams", stream_style ? nlohmann::ordered_json(r.readings->streams())
                               : nlohmann::ordered_json(nullptr)},
      {"seed", m.seed},
      {"threads", r.threads},
      {"model_facts", to_json(m.facts)},
      {"quantities", std::move(quantities)},
      {"config", m.config},
      {"environment", std::move(environment)},
  };
}

void write_session_table(std::ostream& out, const session_result& r, const session_labels& labels) {
  const bool stream_style = r.readings && r.readings->stream_style();
  out << labels.experiment << ": model " << labels.model << ", seed " << labels.seed << ", preset "
      << labels.preset << ", " << r.threads << (r.threads == 1 ? " thread" : " threads");
  if (stream_style) out << ", " << r.readings->streams() << " streams";
  out << "\n";
  // Exact facts of the configuration, not estimates: no interval.
  for (const auto& f : labels.facts) {
    out << "  " << f.name << " = " << to_string(f.value);
    if (!f.description.empty()) out << "  (" << f.description << ")";
    out << '\n';
  }
  if (r.measurement) out << describe(*r.measurement);
  out << "\n";

  if (r.quantities.empty()) {
    out << "no readings";
    // Only a limit ends a session before its first replication is done: say so, because the
    // usual cause is one replication longer than max_seconds, which more time would fix.
    if (r.replications == 0 && (r.stopped_because == stop_reason::max_seconds ||
                                r.stopped_because == stop_reason::interrupted))
      out << ": no " << (stream_style ? "reading" : "replication")
          << " finished before the session was stopped; those under way were ended and dropped"
             " (docs/cli.md, \"Limits, and how quickly each acts\")";
    out << "\n";
  } else {
    const bool exact = !labels.analytic.empty();
    std::vector<std::vector<std::string>> rows = {
        {"quantity", "mean", "interval", "±%", "readings", "subsession", "converged"}};
    if (exact) rows[0].insert(rows[0].end(), {"exact", "covered"});
    for (const auto& q : r.quantities) {
      const analysis& a = q.stats;
      const double resolution =
          a.ci_low && a.mean ? std::abs(*a.mean - *a.ci_low) : 0.0;  // half-width below the mean
      std::string name = q.name;
      if (!q.unit.empty()) name += " (" + q.unit + ")";
      std::string pm = "-";
      if (a.ci_low && !a.ci_high)
        pm = "unbounded";
      else if (a.ci_width_rel)
        pm = "±" + format_percent(*a.ci_width_rel / 2);
      std::string sub = "-";
      if (a.subsession_size && a.subsession_count)
        sub = std::to_string(*a.subsession_size) + " x " + std::to_string(*a.subsession_count);
      std::string verdict = a.converged ? "yes" : "no";
      if (!q.required) verdict += " (optional)";
      rows.push_back({name, a.mean ? format_number(*a.mean, resolution) : "-",
                      interval_text(a, resolution), pm, std::to_string(a.n), sub, verdict});
      if (exact) {
        const auto it = labels.analytic.find(q.name);
        const auto c = it == labels.analytic.end() ? std::nullopt : covers(a, it->second);
        rows.back().push_back(it == labels.analytic.end() ? "-"
                                                          : format_number(it->second, resolution));
        rows.back().push_back(c ? (*c ? "yes" : "no") : "-");
      }
    }
    write_columns(out, rows, {true, false, true, false, false, false, true, false, true});
  }

  const double seconds = std::chrono::duration<double>(r.end - r.start).count();
  char took[32];
  std::snprintf(took, sizeof took, "%.3g s", seconds);
  out << "\nstopped: " << r.stopped_because << " (" << explain(r.stopped_because) << ") after "
      << r.replications << (stream_style ? " readings" : " replications") << " in " << r.rounds
      << (r.rounds == 1 ? " round" : " rounds") << ", " << took << '\n';

  // Readings not inside any interval, so a reader knows what the estimate rests on.
  bool any = false;
  for (const auto& q : r.quantities) {
    const analysis& a = q.stats;
    if (q.derived || a.n == a.n_used) continue;
    const std::string parts = discarded_text(a);
    if (parts == "nothing") continue;
    out << (any ? "           " : "discarded: ") << q.name << ": " << parts << '\n';
    any = true;
  }
  if (!any) out << "discarded: nothing\n";

  for (const auto& q : r.quantities) {
    const analysis& a = q.stats;
    if (a.converged) continue;
    out << "not converged" << (q.required ? "" : " (optional)") << ": " << q.name << ": "
        << a.status;
    if (a.unreachable)
      out << " (unreachable)";
    else if (a.required_samples)
      out << " (needs about " << *a.required_samples << " readings in the stable phase, has "
          << a.n_used << ")";
    out << '\n';
  }
  if (r.error) out << "error: " << *r.error << '\n';
}

void write_raw_readings(std::ostream& out, const session_result& r, const model_spec& spec) {
  const auto& qs = spec.quantities();
  if (!r.readings) {
    out << (spec.is_stream_style() ? "stream,index,quantity,value\n"
                                   : "replication,quantity,value\n");
    return;
  }
  const engine& e = *r.readings;
  std::array<char, 32> buf;
  std::vector<std::string> names;
  for (const auto& q : qs) names.push_back(csv_field(q.name));
  if (!e.stream_style()) {
    out << "replication,quantity,value\n";
    std::size_t n = 0;
    for (std::size_t q = 0; q < qs.size(); ++q)
      if (!qs[q].derived()) n = std::max(n, e.readings(q).size());
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t q = 0; q < qs.size(); ++q) {
        if (qs[q].derived() || i >= e.readings(q).size()) continue;
        out << i << ',' << names[q] << ',' << number_text(e.readings(q)[i], buf) << '\n';
      }
    return;
  }
  out << "stream,index,quantity,value\n";
  for (std::size_t s = 0; s < e.streams(); ++s)
    for (std::size_t q = 0; q < qs.size(); ++q) {
      if (qs[q].derived()) continue;
      const auto& v = e.stream_readings(s, q);
      for (std::size_t i = 0; i < v.size(); ++i)
        out << s << ',' << i << ',' << names[q] << ',' << number_text(v[i], buf) << '\n';
    }
}

}  // namespace mcpilot
