#include "mcpilot/programs/bench_words.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "mcpilot/error.hpp"
#include "mcpilot/join.hpp"

namespace mcpilot::programs {

namespace {

std::string quote_word(const std::string& w) {
  if (!w.empty() && w.find_first_of(" \t\n'\"\\$`*?[]{}()<>|&;~#") == std::string::npos) return w;
  std::string quoted = "'";  // appended: GCC 12 warns falsely (-Wrestrict) on "'" + string
  quoted += replace_all(w, "'", "'\\''");
  quoted += '\'';
  return quoted;
}

}  // namespace

std::vector<std::string> csv_columns(const std::string& output) {
  if (output == "csv") return {"reading"};
  if (output.rfind("csv:", 0) != 0) return {};
  std::vector<std::string> names;
  std::stringstream ss(output.substr(4));
  for (std::string n; std::getline(ss, n, ',');) {
    if (n.empty()) throw input_error("--output " + output + ": empty column name");
    if (std::find(names.begin(), names.end(), n) != names.end())
      throw input_error("--output " + output + ": column '" + n + "' is named twice");
    // bench's own quantities: a column of the same name would be a second quantity of that name.
    for (const char* own : {"wall_time", "user_time", "system_time", "peak_rss"})
      if (n == own)
        throw input_error("--output " + output + ": column '" + n +
                          "' is the name of bench's own measurement; call it something else");
    names.push_back(n);
  }
  if (names.empty()) throw input_error("--output " + output + ": no column names after csv:");
  return names;
}

std::vector<std::vector<double>> parse_output(const std::string& text,
                                              const std::vector<std::string>& columns,
                                              const std::string& command) {
  std::vector<std::vector<double>> rows;
  std::stringstream in(text);
  std::size_t line_no = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    std::vector<std::string> fields;
    std::stringstream ls(line);
    for (std::string f; std::getline(ls, f, ',');) fields.push_back(f);
    if (fields == columns) continue;
    std::vector<double> row;
    bool ok = fields.size() == columns.size();
    for (std::size_t i = 0; ok && i < fields.size(); ++i) {
      const std::string& f = fields[i];
      char* end = nullptr;
      const double v = std::strtod(f.c_str(), &end);
      ok = end != f.c_str() && std::string(end).find_first_not_of(" \t") == std::string::npos &&
           std::isfinite(v);
      row.push_back(v);
    }
    if (!ok)
      throw input_error("--output csv: " + command + ": stdout line " + std::to_string(line_no) +
                        " does not give " + std::to_string(columns.size()) +
                        " number(s) for column(s) " + join(columns, ",") + ": \"" + line + "\"");
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t p = s.find(from); p != std::string::npos; p = s.find(from, p + to.size()))
    s.replace(p, from.size(), to);
  return s;
}

std::string format_work(double w) {
  std::ostringstream os;
  os << static_cast<long long>(std::llround(w));
  return os.str();
}

std::vector<std::string> group_commands(const std::vector<std::string>& words, std::size_t names) {
  const bool lines = std::any_of(words.begin(), words.end(), [](const std::string& w) {
    return w.find_first_of(" \t") != std::string::npos;
  });
  if (lines || (names > 1 && names == words.size()) || words.size() == 1) return words;
  std::vector<std::string> quoted;
  for (const auto& w : words) quoted.push_back(quote_word(w));
  return {join(quoted, " ")};
}

}  // namespace mcpilot::programs
