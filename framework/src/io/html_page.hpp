#pragma once
// Private to the HTML reports (io/html_report.hpp): a page described as plain data (a verdict,
// tables, figures as gnuplot requests, sections), and the one writer that turns it into HTML.
// Each report kind fills a page from its result struct (html_report_*.cpp); only this writer
// knows the markup, the style sheet and how a figure is put inline.

#include <cstddef>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "mcpilot/io/html_report.hpp"
#include "mcpilot/io/plot.hpp"

namespace mcpilot::html {

// Text for an HTML text node or a quoted attribute value: & < > " ' escaped.
std::string escape(std::string_view text);

struct table {
  std::string caption;
  std::vector<std::string> header;
  std::vector<std::vector<std::string>> rows;  // plain text; the writer escapes it
  std::vector<bool> numeric;  // right-aligned, unbroken columns (missing entries: text)
  bool row_headers = true;    // the first cell of each row names it
  std::string note;           // a line under the table
};

struct figure {
  std::string caption;      // what the figure shows, one sentence
  std::string description;  // the text alternative: what a reader would see, with the numbers
  plot_request plot;        // gnuplot's picture; output and format are the writer's
  std::vector<table> data;  // the figure's data, when small enough to list
  std::string data_note;    // where the data are otherwise ("the table of the verdict above")
};

enum class tone { good, warning, bad };

struct verdict {
  tone mood = tone::good;
  std::string headline;            // "Converged", "Not converged", ...
  std::string summary;             // the sentence after the headline
  std::vector<std::string> notes;  // further lines (errors, what was discarded)
};

struct section {
  std::string heading;
  std::vector<std::string> paragraphs;
  std::vector<table> tables;
};

struct page {
  std::string title;     // the <title> and the <h1>
  std::string subtitle;  // one line under the <h1>
  verdict result;
  std::vector<table> verdict_tables;  // the intervals: right under the verdict
  std::vector<figure> figures;
  std::vector<section> details;  // after the figures, before the provenance
};

// The whole page: verdict, figures (drawn through gnuplot when it is on PATH), details, then the
// provenance. Never throws for a figure: one gnuplot cannot draw is replaced by a note saying
// where it would be and why it is not.
report_outcome write_page(std::ostream& out, const page& pg, const report_provenance& p);

// A figure's SVG as gnuplot wrote it, made fit to sit inside a page: the XML declaration dropped,
// every id (and reference to one) prefixed with `id` so that several figures never share one,
// gnuplot's own <title> and <desc> replaced by `title` and `description` (escaped here), and the
// root marked role="img" and labelled by them. Throws input_error when `svg` has no <svg> root or
// holds a script. O(size).
std::string inline_svg(std::string_view svg, const std::string& id, const std::string& title,
                       const std::string& description);

// Draws a figure to SVG text through io/plot.hpp (a temporary file, removed after). Throws
// input_error when gnuplot is missing or fails, with gnuplot's complaint.
std::string render_svg(plot_request request);

}  // namespace mcpilot::html
