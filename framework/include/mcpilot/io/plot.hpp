#pragma once
// The one door to gnuplot (Debian package gnuplot-nox): a caller describes a picture as inline
// data blocks and gnuplot commands; this file sets the terminal, writes the picture atomically and
// reports gnuplot's own complaint when it has one. Commands that plot (run, analyze, scaling)
// build their scripts elsewhere and share this driver.
//
// Data blocks are written into the script itself ($name << EOD ... EOD), so a plot never depends
// on temporary data files. NaN values are written as NaN, which gnuplot skips as undefined.

#include <string>
#include <string_view>
#include <vector>

namespace mcpilot {

enum class plot_format { svg, png };

// "svg" or "png"; throws input_error for anything else.
plot_format parse_plot_format(std::string_view text);

struct plot_data {
  std::string name;                  // referenced in the script as $name
  std::vector<std::string> columns;  // written as a comment line, for a reader of the script
  std::vector<std::vector<double>> rows;
};

struct plot_request {
  std::string output;  // the picture's path
  plot_format format = plot_format::svg;
  int width = 960;  // pixels
  int height = 640;
  std::vector<plot_data> data;
  std::string commands;  // everything after the terminal and output: titles, labels, plot lines
};

// Whether a gnuplot executable is on PATH.
bool gnuplot_available();

// The full script gnuplot is given, with `output_path` as its output: terminal, data blocks,
// commands. Exposed so that tests can read it without gnuplot.
std::string gnuplot_script(const plot_request& r, const std::string& output_path);

// Renders the picture: gnuplot writes a temporary file beside r.output, which is then renamed into
// place, so an old picture survives a failure. Throws input_error when gnuplot is missing (naming
// the package to install) or when it fails (with its message).
void render_plot(const plot_request& r);

// A string as a gnuplot double-quoted literal (backslashes, quotes and newlines escaped; '@' is
// doubled away from enhanced-text markup by the terminals' noenhanced setting).
std::string gnuplot_quote(std::string_view text);

}  // namespace mcpilot
