#include "run_support.hpp"

#include <unistd.h>

#include <iostream>

#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"

namespace mcpilot::cli {

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);  // so that a signal handler may store it

namespace {

extern "C" void on_stop_signal(int) {
  interrupted.store(true);
  if (!signal_speaks.load()) return;
  static const char message[] =
      "\nmcpilot: interrupted: finishing the replications under way and writing the results so far "
      "(a second signal aborts at once; files already written are never left half-written)\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  if (signal_hint_size > 0) ignored = write(STDERR_FILENO, signal_hint.data(), signal_hint_size);
  (void)ignored;
}

}  // namespace

std::atomic<bool> signal_speaks{true};
std::array<char, 1024> signal_hint{};
std::size_t signal_hint_size = 0;

stop_signal_scope::stop_signal_scope() {
  interrupted.store(false);
  for (std::size_t i = 0; i < signals.size(); ++i) {
    // A process started with a signal ignored (a background job of a non-interactive shell,
    // nohup) was meant to be immune to it: leave it so.
    sigaction(signals[i], nullptr, &previous_[i]);
    if (previous_[i].sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESETHAND;
    installed_[i] = sigaction(signals[i], &sa, nullptr) == 0;
  }
}

stop_signal_scope::~stop_signal_scope() {
  for (std::size_t i = 0; i < signals.size(); ++i)
    if (installed_[i]) sigaction(signals[i], &previous_[i], nullptr);
}

void check_outputs(const run_options& o) {
  check_distinct_outputs({{"--json", o.json},
                          {"--raw", o.raw},
                          {"--table", o.table},
                          {"--plot", o.plot},
                          {"--checkpoint", o.checkpoint},
                          {"--report", o.report.path}});
  if (!o.json.empty() && o.json != "-") check_writable(o.json, "--json");
  if (!o.raw.empty()) check_writable(o.raw, "--raw");
  if (!o.table.empty()) check_writable(o.table, "--table");
  if (!o.plot.empty()) check_writable(o.plot, "--plot");
  if (!o.checkpoint.empty()) check_writable(o.checkpoint, "--checkpoint");
  if (!o.report.path.empty()) check_writable(o.report.path, "--report");
}

int render_last(const std::function<plot_request()>& build, int code, const std::string& program) {
  try {
    render_plot(build());
  } catch (const input_error& e) {
    std::cerr << program << ": error: " << e.what() << '\n';
    return code == exit_interrupted ? code : exit_input;
  }
  return code;
}

}  // namespace mcpilot::cli
