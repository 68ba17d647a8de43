#pragma once
// `--report FILE.html` (io/html_report.hpp), the same for every command that has it: the option,
// and the step that writes the page atomically after everything else and warns, without changing
// the exit code, when a figure could not be drawn (gnuplot missing: the page says so in its
// place). The pages' provenance (command, seed, config, settings, environment) is gathered here
// so that each command adds one call.

#include <CLI/CLI.hpp>

#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mcpilot/io/html_report.hpp"

namespace mcpilot::cli {

struct report_request {
  std::string path;  // empty: no report
  const context* invocation = nullptr;
};

// Adds --report FILE to `cmd`; `r.invocation` is set to `ctx` for the command line and program.
CLI::Option* add_report_option(CLI::App* cmd, report_request& r, const context& ctx);

// The words the command was started with, program first (for the page's "Command").
std::vector<std::string> command_words(const report_request& r);

// Writes the page through io/atomic_file (an input_error names --report and the path when the
// file cannot be written); a figure that was not drawn is a warning on stderr.
void write_report_file(const report_request& r,
                       const std::function<report_outcome(std::ostream&)>& write);

}  // namespace mcpilot::cli
