#include "run_support.hpp"

#include <unistd.h>

#include <filesystem>
#include <iostream>

#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"

namespace mcpilot::cli {

stop_flag interrupted;

namespace {

extern "C" void on_stop_signal(int) {
  // `timeout` and a terminal signal the whole process group, so one request often arrives twice:
  // say it once, and let every later one find the flag already set.
  if (interrupted.raise() || !signal_speaks.load()) return;
  static const char message[] =
      "\nmcpilot: interrupted: finishing the replications under way and writing the results so far "
      "(further stop signals change nothing; only SIGKILL aborts at once)\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  if (signal_hint_size > 0) ignored = write(STDERR_FILENO, signal_hint.data(), signal_hint_size);
  (void)ignored;
}

}  // namespace

std::atomic<bool> signal_speaks{true};
std::array<char, 1024> signal_hint{};
std::size_t signal_hint_size = 0;

stop_signal_scope::stop_signal_scope() {
  interrupted.clear();
  for (std::size_t i = 0; i < signals.size(); ++i) {
    // A process started with a signal ignored (a background job of a non-interactive shell,
    // nohup) was meant to be immune to it: leave it so.
    sigaction(signals[i], nullptr, &previous_[i]);
    if (previous_[i].sa_handler == SIG_IGN) continue;
    struct sigaction sa {};
    sa.sa_handler = on_stop_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;
    installed_[i] = sigaction(signals[i], &sa, nullptr) == 0;
  }
}

stop_signal_scope::~stop_signal_scope() {
  for (std::size_t i = 0; i < signals.size(); ++i)
    if (installed_[i]) sigaction(signals[i], &previous_[i], nullptr);
}

void check_outputs(const run_options& o) {
  const std::vector<std::pair<std::string, std::string>> outputs = {{"--json", o.json},
                                                                    {"--raw", o.raw},
                                                                    {"--table", o.table},
                                                                    {"--plot", o.plot},
                                                                    {"--checkpoint", o.checkpoint},
                                                                    {"--report", o.report.path}};
  check_distinct_outputs(outputs);
  for (const auto& [option, path] : outputs)
    if (path == "-" && option != "--json" && option != "--raw" && option != "--table")
      throw input_error(option + " -: standard output is for --json, --raw or --table; give " +
                        option + " a file");
  // --resume ck --checkpoint ck keeps one file up to date, as documented; every other output
  // that is an input would destroy it.
  std::vector<std::pair<std::string, std::string>> written = outputs;
  std::error_code ec;
  if (!o.resume.empty() &&
      (o.checkpoint == o.resume || std::filesystem::equivalent(o.resume, o.checkpoint, ec)))
    std::erase_if(written, [](const auto& w) { return w.first == "--checkpoint"; });
  check_outputs_are_not_inputs(written, {{"the config", o.config}, {"the checkpoint", o.resume}});
  for (const auto& [option, path] : outputs)
    if (!path.empty() && path != "-") check_writable(path, option);
}

bool stdout_is_an_output(const run_options& o) {
  return o.json == "-" || o.raw == "-" || o.table == "-";
}

void write_output(const std::string& path, std::string_view option,
                  const std::function<void(std::ostream&)>& write) {
  if (path != "-") return write_file_atomically(path, option, write);
  write(std::cout);
  std::cout.flush();
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
