#include "run_support.hpp"

#include <unistd.h>

#include <iostream>

#include "mcpilot/cli.hpp"
#include "mcpilot/error.hpp"

namespace mcpilot::cli {

std::atomic<bool> interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free);  // so that a signal handler may store it

namespace {

extern "C" void on_sigint(int) {
  interrupted.store(true);
  static const char message[] =
      "\nmcpilot: interrupted: stopping after this round and writing the results so far "
      "(Ctrl-C again to abort at once)\n";
  ssize_t ignored = write(STDERR_FILENO, message, sizeof message - 1);
  (void)ignored;
}

}  // namespace

sigint_scope::sigint_scope() {
  interrupted.store(false);
  // A process started with SIGINT ignored (a background job of a non-interactive shell, say)
  // was meant to be immune to Ctrl-C: leave it so.
  sigaction(SIGINT, nullptr, &previous_);
  if (previous_.sa_handler == SIG_IGN) return;
  struct sigaction sa {};
  sa.sa_handler = on_sigint;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;
  installed_ = sigaction(SIGINT, &sa, nullptr) == 0;
}

sigint_scope::~sigint_scope() {
  if (installed_) sigaction(SIGINT, &previous_, nullptr);
}

void open_output(std::ofstream& out, const std::string& path, const char* option) {
  out.open(path, std::ios::binary | std::ios::trunc);
  if (!out) throw input_error(std::string(option) + " " + path + ": cannot open for writing");
}

void check_written(std::ofstream& out, const std::string& path, const char* option) {
  out.flush();
  if (!out) throw input_error(std::string(option) + " " + path + ": write failed");
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
