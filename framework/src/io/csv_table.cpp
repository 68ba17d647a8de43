#include "mcpilot/io/csv_table.hpp"

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "mcpilot/error.hpp"

namespace mcpilot {

namespace {

bool cell_blank(char c) {
  return c == ' ' || c == '\t';
}

// Splits one line at commas, quote-aware, keeping each cell's starting column.
void split(std::string_view line, csv_row& row) {
  std::size_t pos = 0;
  for (;;) {
    while (pos < line.size() && cell_blank(line[pos])) ++pos;
    const std::size_t start = pos;
    std::string cell;
    if (pos < line.size() && line[pos] == '"') {
      ++pos;
      while (pos < line.size()) {
        if (line[pos] == '"') {
          if (pos + 1 < line.size() && line[pos + 1] == '"') {
            cell += '"';
            pos += 2;
            continue;
          }
          ++pos;
          break;
        }
        cell += line[pos++];
      }
      // Anything after the closing quote, up to the comma, is kept as written.
      const auto comma = line.find(',', pos);
      const std::size_t end = comma == std::string_view::npos ? line.size() : comma;
      std::string_view tail = line.substr(pos, end - pos);
      while (!tail.empty() && cell_blank(tail.back())) tail.remove_suffix(1);
      cell += tail;
      pos = end;
    } else {
      const auto comma = line.find(',', pos);
      std::size_t end = comma == std::string_view::npos ? line.size() : comma;
      pos = end;
      while (end > start && cell_blank(line[end - 1])) --end;
      cell.assign(line.substr(start, end - start));
    }
    row.cells.push_back(std::move(cell));
    row.column.push_back(static_cast<std::uint32_t>(start + 1));
    if (pos >= line.size()) break;
    ++pos;  // past the comma
  }
}

}  // namespace

std::optional<double> parse_csv_number(std::string_view s) {
  if (s.empty()) return std::nullopt;
  const char* b = s.data();
  const char* e = b + s.size();
  if (*b == '+' && e - b > 1) ++b;
  double v = 0;
  const auto [ptr, ec] = std::from_chars(b, e, v);
  if (ec != std::errc() || ptr != e || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string csv_field(std::string_view s) {
  if (s.find_first_of(",\"\n\r") == std::string_view::npos && !s.starts_with('#'))
    return std::string(s);
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + '"';
}

std::optional<std::size_t> csv_table::find(std::string_view name) const {
  for (std::size_t i = 0; i < header.size(); ++i)
    if (header[i] == name) return i;
  if (!name.empty() && name.find_first_not_of("0123456789") == std::string_view::npos &&
      name.size() < 10)
    return static_cast<std::size_t>(std::stoul(std::string(name)));
  return std::nullopt;
}

std::string csv_table::where(const csv_row& r, std::size_t c) const {
  const std::uint32_t col = c < r.column.size() ? r.column[c] : 1;
  return source + ':' + std::to_string(r.line) + ':' + std::to_string(col);
}

std::string csv_table::columns() const {
  if (header.empty()) return "no header";
  std::string out;
  for (std::size_t i = 0; i < header.size(); ++i) out += (i ? ", " : "") + header[i];
  return out;
}

csv_table read_csv_table(const std::string& path) {
  csv_table t;
  t.source = path == "-" ? "<stdin>" : path;
  std::string text;
  if (path == "-") {
    text.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
  } else {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw input_error(t.source + ": cannot open: " + std::strerror(errno));
    std::ostringstream os;
    os << in.rdbuf();
    if (in.bad()) throw input_error(t.source + ": cannot read");
    text = os.str();
  }
  std::uint32_t line_no = 0;
  bool first = true;
  std::size_t at = 0;
  while (at < text.size()) {
    auto nl = text.find('\n', at);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + at, nl - at);
    at = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto content = line.find_first_not_of(" \t");
    if (content == std::string_view::npos || line[content] == '#') continue;
    csv_row row;
    row.line = line_no;
    split(line, row);
    if (first) {
      first = false;
      bool numeric = true;
      for (const auto& c : row.cells) numeric = numeric && parse_csv_number(c).has_value();
      if (!numeric) {
        t.header = std::move(row.cells);
        t.header_line = line_no;
        continue;
      }
    }
    t.rows.push_back(std::move(row));
  }
  if (t.rows.empty())
    throw input_error(t.source + (t.header.empty() ? ": no data: the file is empty"
                                                   : ": no data: only a header line"));
  return t;
}

}  // namespace mcpilot
