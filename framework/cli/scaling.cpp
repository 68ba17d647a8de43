// `mcpilot scaling FILE|-`: how a measured cost grows with the input size, over the sizes
// measured (docs/scaling.md). Input: CSV rows n,time[,run_id] (columns chosen by header name or
// 0-based index), or a sweep's results table with --quantity NAME.
//
// Exit codes: 0 when an analysis was produced, whatever its label (insufficient-design,
// none-adequate and ambiguous are results); 2 for usage and input errors, each naming file, line
// and field (and for a plot that could not be drawn, after the report is printed); 1 for a bug.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <string_view>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/csv_table.hpp"
#include "mcpilot/io/plot.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/io/scaling_plot.hpp"
#include "mcpilot/io/scaling_report.hpp"
#include "mcpilot/join.hpp"
#include "mcpilot/stats/scaling.hpp"
#include "option_checks.hpp"
#include "scaling_page.hpp"
#include "scaling_range.hpp"

namespace mcpilot::cli {

namespace {

constexpr std::uint64_t max_bootstrap = 100'000;

struct scaling_state {
  std::string file;
  std::string n_column = "n";
  std::string value_column;  // "time", or "mean" with --quantity
  std::string quantity;
  std::string models;
  std::string unit;
  std::size_t bootstrap = 1000;
  std::uint64_t seed = 1;
  double relative_tolerance = 0.25;
  bool json = false;
  std::string plot;
  std::string format = "svg";
  report_request report;  // --report FILE.html
};

std::string known_shapes() {
  std::vector<std::string> names;
  for (auto shape : all_scaling_shapes()) names.emplace_back(to_string(shape));
  return join(names);
}

std::vector<scaling_shape> parse_models(const std::string& text) {
  std::vector<scaling_shape> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    auto comma = text.find(',', at);
    if (comma == std::string::npos) comma = text.size();
    std::string name = text.substr(at, comma - at);
    name.erase(0, name.find_first_not_of(" \t"));
    name.erase(name.find_last_not_of(" \t") + 1);
    const auto shape = parse_scaling_shape(name);
    if (!shape)
      throw input_error("--models: unknown shape '" + name + "'; the known shapes are " +
                        known_shapes());
    out.push_back(*shape);
    at = comma + 1;
  }
  return out;
}

std::size_t column_index(const csv_table& t, const std::string& name, const char* option) {
  if (const auto i = t.find(name)) return *i;
  throw input_error(t.source + (t.header_line ? ":" + std::to_string(t.header_line) : "") +
                    ": no column '" + name + "' (columns: " + t.columns() + "); choose one with " +
                    option);
}

// The sized rows of the table, validated; skipped sweep points are counted in `source`.
struct sized_rows {
  std::vector<double> n, t;
  std::vector<std::uint32_t> lines;
};

double number_at(const csv_table& t, const csv_row& row, std::size_t c, const std::string& name,
                 bool size) {
  if (c >= row.cells.size())
    throw input_error(t.where(row, row.cells.size()) + ": the line has " +
                      std::to_string(row.cells.size()) + " fields, but field '" + name +
                      "' (column " + std::to_string(c) + ", 0-based) is asked for");
  const auto v = parse_csv_number(row.cells[c]);
  if (!v)
    throw input_error(t.where(row, c) + ": field '" + name + "' \"" + row.cells[c].substr(0, 40) +
                      "\" is not a finite number");
  if (!(*v > 0))
    throw input_error(t.where(row, c) + ": field '" + name + "' is " + row.cells[c] +
                      (size ? "; a size n must be > 0" : "; a value must be > 0 (a log scale)"));
  return *v;
}

sized_rows read_rows(const csv_table& t, const scaling_state& st, scaling_source& source) {
  const std::size_t nc = column_index(t, st.n_column, "--n-column");
  const std::size_t vc = column_index(t, st.value_column, "--value-column");
  if (nc == vc) throw input_error("--n-column and --value-column name the same column");
  std::optional<std::size_t> qc;
  std::vector<std::size_t> other_keys;  // swept columns other than n: must not vary at one n
  if (!st.quantity.empty()) {
    qc = column_index(t, "quantity", "a sweep results table (its 'quantity' column)");
    const auto point = t.find("point");
    for (std::size_t i = point && *point < *qc ? *point + 1 : 0; i < *qc; ++i)
      if (i != nc) other_keys.push_back(i);
  }
  sized_rows out;
  std::set<std::string> quantities;
  std::map<double, const csv_row*> first_at;  // for the swept-keys check
  for (const auto& row : t.rows) {
    if (qc) {
      if (*qc >= row.cells.size())
        throw input_error(t.where(row, row.cells.size()) + ": the line has no 'quantity' field");
      quantities.insert(row.cells[*qc]);
      if (row.cells[*qc] != st.quantity) continue;
      // A failed sweep point has no mean: it is reported in the sweep's own table; here it is
      // skipped and counted.
      if (vc < row.cells.size() && row.cells[vc].empty()) {
        ++source.skipped_rows;
        continue;
      }
    }
    const double n = number_at(t, row, nc, st.n_column, true);
    const double v = number_at(t, row, vc, st.value_column, false);
    if (!other_keys.empty()) {
      const auto [it, fresh] = first_at.emplace(n, &row);
      for (std::size_t k : other_keys)
        if (!fresh && k < row.cells.size() && k < it->second->cells.size() &&
            row.cells[k] != it->second->cells[k])
          throw input_error(t.where(row, k) + ": field '" + t.header[k] + "' is " + row.cells[k] +
                            ", but line " + std::to_string(it->second->line) + " at the same " +
                            st.n_column + " has " + it->second->cells[k] +
                            ": the table sweeps more than " + st.n_column +
                            "; select one slice of it first");
    }
    out.n.push_back(n);
    out.t.push_back(v);
    out.lines.push_back(row.line);
  }
  if (qc && out.n.empty()) {
    throw input_error(t.source + ": no row has quantity '" + st.quantity + "'" +
                      (source.skipped_rows ? " with a mean" : "") +
                      " (quantities: " + join({quantities.begin(), quantities.end()}) + ")");
  }
  if (source.skipped_rows)
    source.notes.push_back(std::to_string(source.skipped_rows) +
                           " sweep points without a mean (failed or stopped) were skipped");
  if (qc)
    source.notes.push_back(
        "each row is one sweep point's mean: the per-size count is the number of points at that "
        "size, not the readings behind each mean; with one point per size the resampling has no "
        "variation. Append rows from sweeps with other seeds to get independent repeats.");
  else if (t.find("run_id") && *t.find("run_id") != nc && *t.find("run_id") != vc)
    source.notes.push_back(
        "run_id is not used: rows are resampled as independent within each size; paired runs "
        "or temporal blocks need a block-aware analysis");
  return out;
}

void run_scaling(const scaling_state& st0) {
  scaling_state st = st0;
  if (st.value_column.empty()) st.value_column = st.quantity.empty() ? "time" : "mean";
  scaling_options o;
  if (!st.models.empty()) o.models = parse_models(st.models);
  o.bootstrap = st.bootstrap;
  o.seed = st.seed;
  if (!(st.relative_tolerance > 0) || !std::isfinite(st.relative_tolerance))
    throw input_error("--relative-tolerance must be a number > 0, got " +
                      format_number(st.relative_tolerance));
  o.relative_tolerance = st.relative_tolerance;
  const plot_format format = parse_plot_format(st.format);

  const csv_table t = read_csv_table(st.file);
  // A file without a header: n and the value are fields 0 and 1 unless named otherwise.
  if (t.header.empty()) {
    if (st0.n_column == "n") st.n_column = "0";
    if (st0.value_column.empty()) st.value_column = "1";
  }
  scaling_source source{t.source, st.n_column, st.value_column, st.quantity, st.unit, 0, {}};
  const sized_rows rows = read_rows(t, st, source);
  const double scale = scaling_value_scale(rows.t);
  scaling_result r = analyze_scaling(rows.n, scaled_values(rows.t, scale), o);
  unscale(r, scale);
  if (r.status == scaling_status::too_few_sizes)
    throw input_error(t.source + ":" + std::to_string(rows.lines.front()) + "-" +
                      std::to_string(rows.lines.back()) + ": field '" + st.n_column +
                      "': every row has n = " + format_size(rows.n.front()) +
                      "; scaling needs at least 2 distinct sizes (6 or more over 16x for a "
                      "claim)");
  if (st.json)
    std::cout << to_json(r, source, o).dump(2) << '\n';
  else
    write_scaling_report(std::cout, r, source, o);
  if (!st.report.path.empty()) write_scaling_page(st.report, r, source, o);
  if (!st.plot.empty()) {
    std::cout.flush();
    render_plot(scaling_plot(r, source, st.plot, format));
    if (!st.json) std::cout << "plot: " << st.plot << '\n';
  }
}

}  // namespace

void add_scaling_command(CLI::App& app, context& ctx) {
  auto st = std::make_shared<scaling_state>();
  CLI::App* cmd = app.add_subcommand(
      "scaling",
      "How a measured cost grows with the input size n, over the sizes measured: local "
      "exponents, shape fits, validation and a label (docs/scaling.md)");
  cmd->add_option("FILE", st->file,
                  "CSV of n,time[,run_id] rows (repeated runs per size), or a sweep's results "
                  "table with --quantity; - for standard input")
      ->required();
  cmd->add_option("--n-column", st->n_column, "column of the sizes (header name or 0-based index)")
      ->default_val("n");
  cmd->add_option("--value-column", st->value_column,
                  "column of the values (default: time, or mean with --quantity)");
  cmd->add_option("--quantity", st->quantity,
                  "read a sweep results table and take this quantity's rows");
  cmd->add_option("--models", st->models,
                  "pre-specified candidate shapes, comma-separated (" + known_shapes() +
                      "); without it every shape is tried and the run is labelled exploratory");
  // Bounded so that a run ends: each resample refits every shape, and 10^5 of them take seconds
  // on a few thousand rows, 10^8 took hours.
  cmd->add_option("--bootstrap", st->bootstrap, "within-size resamples for selection stability")
      ->check(unsigned_in(0, max_bootstrap, "a number of resamples"))
      ->default_val(1000);
  cmd->add_option("--seed", st->seed, "seed of the resampling (Philox)")
      ->check(unsigned_in(0, UINT64_MAX, "a seed"))
      ->default_val(1);
  cmd->add_option("--relative-tolerance", st->relative_tolerance,
                  "epsilon: both validation errors must be within log(1 + epsilon); set it "
                  "before looking at results")
      ->check(number_between(0, HUGE_VAL))
      ->default_val(0.25);
  cmd->add_option("--unit", st->unit, "unit of the values, for the report and the plot's axis");
  cmd->add_flag("--json", st->json, "print the result as one JSON object on stdout, nothing else");
  CLI::Option* plot = cmd->add_option(
      "--plot", st->plot, "draw medians, fitted shapes and local exponents to this file (gnuplot)");
  cmd->add_option("--format", st->format, "plot format: svg or png")
      ->default_val("svg")
      ->needs(plot);
  add_report_option(cmd, st->report, ctx);
  cmd->callback([st, &ctx] {
    if (ctx.parse_only) return;  // reading the file is the CSV reader's own fuzz target
    run_scaling(*st);
    ctx.result = exit_ok;
  });
}

}  // namespace mcpilot::cli
