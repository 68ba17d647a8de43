#include "mcpilot/io/plot.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/number_text.hpp"

extern char** environ;

namespace mcpilot {

namespace {

namespace fs = std::filesystem;

constexpr const char* missing_message =
    "gnuplot is not installed; install the Debian package gnuplot-nox "
    "(apt-get install gnuplot-nox) to draw plots; everything else works without it";

// gnuplot's word for a missing value.
std::string data_text(double v) {
  return std::isnan(v) ? "NaN" : number_text(v);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

}  // namespace

plot_format parse_plot_format(std::string_view text) {
  if (text == "svg") return plot_format::svg;
  if (text == "png") return plot_format::png;
  throw input_error("--format: '" + std::string(text) + "' is not a plot format (svg, png)");
}

bool gnuplot_available() {
  const char* path = std::getenv("PATH");
  if (!path) return false;
  std::string_view dirs(path);
  while (!dirs.empty()) {
    const auto colon = dirs.find(':');
    const std::string dir(dirs.substr(0, colon));
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / "gnuplot";
    if (access(candidate.c_str(), X_OK) == 0) return true;
    if (colon == std::string_view::npos) break;
    dirs.remove_prefix(colon + 1);
  }
  return false;
}

std::string gnuplot_quote(std::string_view text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '\\' || c == '"') out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + '"';
}

std::string gnuplot_script(const plot_request& r, const std::string& output_path) {
  std::ostringstream os;
  if (r.format == plot_format::svg)
    os << "set terminal svg size " << r.width << ',' << r.height
       << " dynamic noenhanced font 'sans,12' background rgb 'white'\n";
  else
    os << "set terminal pngcairo size " << r.width << ',' << r.height
       << " noenhanced font 'sans,11' background rgb 'white'\n";
  os << "set output " << gnuplot_quote(output_path) << '\n';
  for (const auto& d : r.data) {
    os << '$' << d.name << " << EOD\n";
    if (!d.columns.empty()) {
      os << '#';
      for (const auto& c : d.columns) os << ' ' << c;
      os << '\n';
    }
    for (const auto& row : d.rows) {
      for (std::size_t i = 0; i < row.size(); ++i) os << (i ? " " : "") << data_text(row[i]);
      os << '\n';
    }
    os << "EOD\n";
  }
  os << r.commands;
  if (!r.commands.empty() && r.commands.back() != '\n') os << '\n';
  os << "unset output\n";
  return os.str();
}

void render_plot(const plot_request& r) {
  if (r.output.empty()) throw input_error("--plot: the file name is empty");
  if (!gnuplot_available()) throw input_error("--plot " + r.output + ": " + missing_message);
  const std::string picture =
      temporary_path_beside(r.output, r.format == plot_format::svg ? ".svg" : ".png");
  const std::string script_path = temporary_path_beside(r.output, ".gp");
  const std::string errors_path = temporary_path_beside(r.output, ".err");
  {
    std::ofstream script(script_path, std::ios::binary | std::ios::trunc);
    if (!script) throw input_error("--plot " + r.output + ": cannot write beside it");
    script << gnuplot_script(r, picture);
    script.flush();
    if (!script) throw input_error("--plot " + r.output + ": cannot write beside it");
  }
  auto cleanup = [&] {
    std::error_code ec;
    fs::remove(script_path, ec);
    fs::remove(errors_path, ec);
    fs::remove(picture, ec);
  };

  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors_path.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::string program = "gnuplot";
  std::array<char*, 3> argv{program.data(), const_cast<char*>(script_path.c_str()), nullptr};
  pid_t pid = 0;
  const int spawned = posix_spawnp(&pid, "gnuplot", &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (spawned != 0) {
    cleanup();
    throw input_error("--plot " + r.output + ": " + missing_message);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  std::string complaint = read_all(errors_path);
  const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && fs::exists(picture) &&
                  fs::file_size(picture) > 0;
  if (!ok) {
    cleanup();
    while (!complaint.empty() && (complaint.back() == '\n' || complaint.back() == ' '))
      complaint.pop_back();
    throw input_error("--plot " + r.output + ": gnuplot failed" +
                      (complaint.empty() ? std::string() : ": " + complaint));
  }
  std::error_code ec;
  fs::rename(picture, r.output, ec);
  if (ec) {
    cleanup();
    throw input_error("--plot " + r.output + ": cannot write: " + ec.message());
  }
  fs::remove(script_path, ec);
  fs::remove(errors_path, ec);
}

}  // namespace mcpilot
