#pragma once
// `mcpilot run --report FILE.html`: the page of one session, of a sweep, or of one point of a
// sweep (--point K), with the provenance every run page carries (the command, the seed, the
// config as read and its overrides, the environment).

#include <chrono>
#include <string>

#include "mcpilot/io/config.hpp"
#include "mcpilot/io/run_plot.hpp"
#include "mcpilot/session.hpp"
#include "mcpilot/sweep/run.hpp"
#include "run_support.hpp"

namespace mcpilot::cli {

// `config_text`: the config file as it was read (a resumed session's: the checkpoint's copy).
void write_session_report(const run_options& o, const experiment_config& cfg,
                          const std::string& config_text, const session_result& r,
                          const round_history& history);

// A sweep; with --point K, the page of that point's session (`history` holds its rounds).
void write_sweep_report(const run_options& o, const experiment_config& cfg,
                        const std::string& config_text, const sweep_result& r,
                        const round_history& history, std::chrono::system_clock::time_point start,
                        std::chrono::system_clock::time_point end);

}  // namespace mcpilot::cli
