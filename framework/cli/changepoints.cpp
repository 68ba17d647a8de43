// `mcpilot changepoints FILE|-`: where the readings change level (warm-up, cool-down, a phase
// change), by binary segmentation confirmed with exact rank tests, and which segment is the
// stable phase.
//
// Exit codes: 0 when the detection ran, whether or not a stable phase was accepted (the JSON's
// `accepted` says); 2 for input errors; 1 for a bug.
#include <iostream>
#include <memory>

#include "analysis_options.hpp"
#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/analysis_json.hpp"
#include "mcpilot/io/report.hpp"
#include "mcpilot/stats/analysis.hpp"
#include "mcpilot/stats/changepoint.hpp"
#include "option_checks.hpp"

namespace mcpilot::cli {

namespace {

struct changepoints_state {
  std::string file;
  double alpha = 0.01;
  std::size_t min_segment = 30;
  std::size_t max_points = changepoint_options{}.max_points;
  shared_options o;
};

void run_changepoints(const changepoints_state& st) {
  const auto kind = parse_quantity_kind(st.o.kind).value_or(quantity_kind::ordinary);
  const precision req = requirements(st.o);
  if (!(st.alpha > 0 && st.alpha < 1))
    throw input_error("--alpha must lie in (0, 1), got " + format_number(st.alpha));
  if (st.min_segment < 2)
    throw input_error("--min-segment must be at least 2, got " + std::to_string(st.min_segment));
  if (st.max_points != 0 && st.max_points < 2 * st.min_segment)
    throw input_error("--max-points must be 0 or at least twice --min-segment (" +
                      std::to_string(2 * st.min_segment) + "), got " +
                      std::to_string(st.max_points) + ": fewer means leave no split to test");
  const csv_column c = read_readings(st.file, {st.o.column, st.o.header});
  note_header(c, std::cerr);

  // The detection runs on the scale the analysis uses: reciprocals for rates.
  std::vector<double> storage;
  std::span<const double> x;
  try {
    x = analysed_scale(c.values, kind, storage);
  } catch (const reading_error& e) {
    throw input_error(c.where(e.index()) + ": field " + std::to_string(c.field) + ": " + e.what());
  }

  changepoint_options co;
  co.alpha = st.alpha;
  co.min_segment = st.min_segment;
  co.max_points = st.max_points;
  co.autocorrelation_limit = changepoint_autocorrelation_limit(req.autocorrelation_limit);
  const changepoint_result r = detect_changepoints(x, co);

  const std::vector<changepoint_segment> segments =
      changepoint_segments(x, r, kind == quantity_kind::rate);

  if (st.o.json) {
    nlohmann::ordered_json j = to_json(r);
    j["source"] = c.source;
    j["header"] = header_json(c);
    j["kind"] = st.o.kind;
    j["alpha"] = st.alpha;
    j["min_segment"] = st.min_segment;
    j["max_points"] = st.max_points;
    j["segments"] = nlohmann::ordered_json::array();
    for (const changepoint_segment& s : segments)
      j["segments"].push_back(
          {{"begin", s.begin}, {"end", s.end}, {"mean", s.mean}, {"stable", s.stable}});
    j["changepoint_lines"] = nlohmann::ordered_json::array();
    for (std::size_t cp : r.changepoints) j["changepoint_lines"].push_back(c.positions.line(cp));
    std::cout << j.dump(2) << '\n';
    return;
  }

  std::cout << c.source << ": " << r.n << " readings, " << r.changepoints.size()
            << (r.changepoints.size() == 1 ? " change-point" : " change-points")
            << " (binary segmentation, exact rank-sum test or t on batch medians at alpha "
            << format_number(st.alpha) << "/n, segments of at least " << st.min_segment
            << (r.resolution > 1 ? " means of " + std::to_string(r.resolution) + " readings"
                                 : std::string())
            << ")\n\n";
  // Readings are numbered from 0, as in the JSON; lines are the file's, to find them there.
  std::vector<std::vector<std::string>> rows;
  rows.push_back(
      {"segment", "readings", "lines", kind == quantity_kind::rate ? "harmonic mean" : "mean", ""});
  for (std::size_t k = 0; k < segments.size(); ++k) {
    const changepoint_segment& s = segments[k];
    rows.push_back({std::to_string(k + 1),
                    std::to_string(s.begin) + "-" + std::to_string(s.end - 1),
                    std::to_string(c.positions.line(s.begin)) + "-" +
                        std::to_string(c.positions.line(s.end - 1)),
                    format_number(s.mean), s.stable ? "stable" : ""});
  }
  write_columns(std::cout, rows, {true, true, true, true, true}, 2);
  std::cout << '\n';
  for (std::size_t k = 0; k < r.changepoints.size(); ++k)
    std::cout << "  change-point at reading " << r.changepoints[k] << " (line "
              << c.positions.line(r.changepoints[k])
              << "): p = " << (k < r.p_values.size() ? format_p(r.p_values[k]) : "?")
              << (k < r.tests.size() && r.tests[k] == changepoint_test::few_batches
                      ? " (t on batch medians: no rank test could decide)"
                      : "")
              << '\n';
  if (r.n < 2 * st.min_segment)
    std::cout << "  (fewer than " << 2 * st.min_segment
              << " readings: no split can leave two segments of " << st.min_segment << ")\n";
  const std::size_t stable_n = r.stable_end - r.stable_begin;
  if (r.accepted)
    std::cout << "  stable phase: readings " << r.stable_begin << "-" << r.stable_end - 1 << " ("
              << stable_n << " of " << r.n << "), accepted\n";
  else
    std::cout << "  no stable phase: the longest segment holds " << stable_n << " of " << r.n
              << " readings, not more than half\n";
}

}  // namespace

void add_changepoints_command(CLI::App& app, context& ctx) {
  auto st = std::make_shared<changepoints_state>();
  CLI::App* cmd = app.add_subcommand(
      "changepoints", "Change-points (warm-up, cool-down) and the stable phase of the readings");
  cmd->add_option("FILE", st->file, "CSV file of readings, or - for standard input")->required();
  add_input_options(cmd, st->o);
  cmd->add_option("--preset", st->o.preset,
                  "sets the autocorrelation limit of the subsession means the test compares")
      ->check(CLI::IsMember({"quick", "normal", "strict"}))
      ->default_val("normal");
  st->o.ac_opt = cmd->add_option("--ac", st->o.ac,
                                 "largest lag-1 autocorrelation allowed between subsession means")
                     ->check(number_between(0, 1));
  cmd->add_option("--alpha", st->alpha, "a change-point stays while its p <= alpha / n")
      ->check(number_between(0, 1))
      ->default_val(0.01);
  cmd->add_option("--min-segment", st->min_segment, "fewest readings in a segment")
      ->check(unsigned_in(2, std::uint32_t{0xffffffff}, "a number of readings"))
      ->default_val(30);
  cmd->add_option("--max-points", st->max_points,
                  "longer series are searched on means of ceil(n / N) readings; 0: every reading")
      ->check(unsigned_in(0, std::uint32_t{0xffffffff}, "a number of points"))
      ->default_val(changepoint_options{}.max_points);
  cmd->callback([st, &ctx] {
    if (ctx.parse_only) return (void)requirements(st->o);
    run_changepoints(*st);
    ctx.result = exit_ok;
  });
}

}  // namespace mcpilot::cli
