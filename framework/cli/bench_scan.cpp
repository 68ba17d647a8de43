#include <cmath>
#include <cstdlib>
#include <iostream>
#include <sstream>

#include "bench_run.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/programs/bench_words.hpp"
#include "run_support.hpp"

namespace mcpilot::cli::bench {

using programs::replace_all;

namespace {

// The values of --parameter-scan: LOW, LOW + S, ... (or LOW, LOW F, ...) up to HIGH.
std::vector<double> scan_values(const bench_options& o) {
  const auto parse = [&](const std::string& t, const std::string& what) {
    char* end = nullptr;
    const double v = std::strtod(t.c_str(), &end);
    if (end == t.c_str() || *end || !std::isfinite(v))
      throw input_error("--parameter-scan " + what + ": not a number: '" + t + "'");
    return v;
  };
  const double low = parse(o.scan[1], "LOW"), high = parse(o.scan[2], "HIGH");
  if (!(high >= low)) throw input_error("--parameter-scan: HIGH is below LOW");
  if (o.scan_step && o.scan_factor)
    throw input_error("--parameter-step and --geometric exclude each other");
  std::vector<double> v;
  const double slack = 1e-9 * std::max(1.0, std::fabs(high));
  if (o.scan_factor) {
    if (!(*o.scan_factor > 1) || !(low > 0))
      throw input_error("--geometric F needs F > 1 and LOW > 0");
    for (double x = low; x <= high + slack; x *= *o.scan_factor) v.push_back(x);
  } else {
    const double step = o.scan_step.value_or(1);
    if (!(step > 0)) throw input_error("--parameter-step must be positive");
    for (std::size_t i = 0; low + i * step <= high + slack; ++i) v.push_back(low + i * step);
  }
  if (v.size() > 10000) throw input_error("--parameter-scan: more than 10000 values");
  return v;
}

std::string scan_text(double v) {
  std::ostringstream os;
  os.precision(12);
  os << v;
  return os.str();
}

}  // namespace

// One session per value of the parameter, {NAME} replaced in every command line; the sweep table
// (docs/bench.md) goes to --export-sweep, in the format `mcpilot scaling` reads.
int run_scan(const bench_options& o, const std::string& program) {
  const std::string token = "{" + o.scan[0] + "}";
  bool used = false;
  for (const auto& c : o.commands) used = used || c.find(token) != std::string::npos;
  if (!used)
    throw input_error("--parameter-scan " + o.scan[0] + ": no " + token + " in the command");
  if (!o.export_json.empty() || !o.export_csv.empty() || !o.export_markdown.empty() ||
      !o.report.path.empty())
    throw input_error(
        "--parameter-scan writes one table (--export-sweep); the per-session "
        "exports and --report are not available with it (mcpilot scaling --report reads the "
        "table)");
  if (!o.export_sweep.empty()) check_writable(o.export_sweep, "--export-sweep");
  std::ostringstream table;
  table << "point," << o.scan[0]
        << ",quantity,mean,ci_low,ci_high,ci_width_rel,readings,converged,stopped_because,"
           "analytic\n";
  int worst = exit_ok;
  const auto values = scan_values(o);
  for (std::size_t i = 0; i < values.size(); ++i) {
    bench_options p = o;
    const std::string value = scan_text(values[i]);
    for (auto* s : {&p.prepare, &p.setup, &p.cleanup}) *s = replace_all(*s, token, value);
    for (auto& c : p.commands) c = replace_all(c, token, value);
    std::cout << "== " << o.scan[0] << " = " << value << '\n';
    const int rc = run_session(p, program, {&table, i, value});
    if (rc == exit_interrupted || rc == exit_input) {
      worst = rc;
      break;
    }
    if (rc != exit_ok) worst = rc;
  }
  if (!o.export_sweep.empty())
    write_file_atomically(o.export_sweep, "--export-sweep",
                          [&](std::ostream& out) { out << table.str(); });
  return worst;
}

}  // namespace mcpilot::cli::bench
