#include "report_option.hpp"

#include <iostream>

#include "mcpilot/io/atomic_file.hpp"
#include "option_checks.hpp"

namespace mcpilot::cli {

CLI::Option* add_report_option(CLI::App* cmd, report_request& r, const context& ctx) {
  r.invocation = &ctx;
  return cmd
      ->add_option("--report", r.path,
                   "write one self-contained HTML page to FILE: the verdict, the figures "
                   "(gnuplot), the tables, and how to reproduce the result")
      ->check(non_empty_path());
}

std::vector<std::string> command_words(const report_request& r) {
  return r.invocation ? r.invocation->words : std::vector<std::string>{};
}

void write_report_file(const report_request& r,
                       const std::function<report_outcome(std::ostream&)>& write) {
  report_outcome outcome;
  write_file_atomically(r.path, "--report", [&](std::ostream& out) { outcome = write(out); });
  if (outcome.problems.empty()) return;
  const std::string program = r.invocation ? r.invocation->program : "mcpilot";
  std::cerr << program << ": warning: --report " << r.path << ": " << outcome.problems.size()
            << " of " << outcome.figures << (outcome.figures == 1 ? " figure" : " figures")
            << " not drawn (the page says where and why; every table is there): "
            << outcome.problems.front() << '\n';
}

}  // namespace mcpilot::cli
