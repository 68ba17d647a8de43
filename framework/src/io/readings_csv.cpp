#include "mcpilot/io/readings_csv.hpp"

#include <sys/stat.h>
#include <algorithm>

#include <cctype>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string_view>
#include <system_error>

#include "mcpilot/error.hpp"

namespace mcpilot {

void reading_positions::push(std::uint32_t line, std::uint32_t column) {
  if (size_ == 0) {
    first_line_ = line;
    first_column_ = column;
  } else {
    if (lines_.empty() && line != first_line_ + size_) {
      lines_.reserve(size_ + 1);
      for (std::size_t i = 0; i < size_; ++i)
        lines_.push_back(first_line_ + static_cast<std::uint32_t>(i));
    }
    if (columns_.empty() && column != first_column_) columns_.assign(size_, first_column_);
  }
  if (!lines_.empty()) lines_.push_back(line);
  if (!columns_.empty()) columns_.push_back(column);
  ++size_;
}

std::uint32_t reading_positions::line(std::size_t i) const {
  return lines_.empty() ? first_line_ + static_cast<std::uint32_t>(i) : lines_[i];
}

std::uint32_t reading_positions::column(std::size_t i) const {
  return columns_.empty() ? first_column_ : columns_[i];
}

std::string csv_column::where(std::size_t i) const {
  return source + ':' + std::to_string(positions.line(i)) + ':' +
         std::to_string(positions.column(i));
}

namespace {

struct file_closer {
  void operator()(std::FILE* f) const {
    if (f != stdin) std::fclose(f);
  }
};

// The whole input in one buffer: one allocation for a regular file, doubling for a pipe.
std::string read_all(const std::string& path, const std::string& source) {
  std::unique_ptr<std::FILE, file_closer> f(path == "-" ? stdin : std::fopen(path.c_str(), "rb"));
  if (!f) throw input_error(source + ": cannot open: " + std::strerror(errno));
  std::string buf;
  std::size_t used = 0;
  struct stat st {};
  if (::fstat(::fileno(f.get()), &st) == 0) {
    if (S_ISDIR(st.st_mode)) throw input_error(source + ": cannot read: it is a directory");
    // One byte more than the size, so that the read loop sees the end without growing.
    if (S_ISREG(st.st_mode) && st.st_size > 0) buf.resize(static_cast<std::size_t>(st.st_size) + 1);
  }
  if (buf.empty()) buf.resize(1 << 16);
  for (;;) {
    if (used == buf.size()) buf.resize(buf.size() * 2);
    const std::size_t got = std::fread(buf.data() + used, 1, buf.size() - used, f.get());
    used += got;
    if (got == 0) break;
  }
  if (std::ferror(f.get())) throw input_error(source + ": cannot read: " + std::strerror(errno));
  buf.resize(used);
  return buf;
}

bool blank(char c) {
  return c == ' ' || c == '\t';
}

// One field of a line: its text without surrounding blanks (or quotes) and where it starts.
struct field {
  std::string_view text;
  std::size_t offset = 0;  // from the start of the line, of the first character of the text
};

// Splits `line` at commas, quote-aware, and stores the fields 0 .. out.size()-1. Returns how many
// fields the line has if it has fewer than out.size(), or out.size().
std::size_t split(std::string_view line, std::span<field> out) {
  std::size_t pos = 0, index = 0;
  while (index < out.size()) {
    while (pos < line.size() && blank(line[pos])) ++pos;
    std::size_t begin = pos, end;
    if (pos < line.size() && line[pos] == '"') {
      begin = ++pos;
      while (pos < line.size()) {
        if (line[pos] == '"') {
          if (pos + 1 < line.size() && line[pos + 1] == '"') {
            pos += 2;
            continue;
          }
          break;
        }
        ++pos;
      }
      const bool closed = pos < line.size();
      end = pos;
      const auto comma = line.find(',', closed ? pos + 1 : pos);
      pos = comma == std::string_view::npos ? line.size() : comma;
      std::size_t tail = end + 1;
      while (tail < pos && blank(line[tail])) ++tail;
      if (!closed || tail < pos) {
        // An unterminated quote, or text after the closing quote: keep the raw field, so that
        // it is reported as it stands rather than silently cut to its quoted part.
        begin = begin - 1;
        end = pos;
        while (end > begin && blank(line[end - 1])) --end;
      }
    } else {
      const auto comma = line.find(',', pos);
      pos = comma == std::string_view::npos ? line.size() : comma;
      end = pos;
      while (end > begin && blank(line[end - 1])) --end;
    }
    out[index++] = field{line.substr(begin, end - begin), begin};
    if (pos >= line.size()) break;
    ++pos;  // past the comma
  }
  return index;
}

enum class parse_status { ok, empty, not_a_number, out_of_range, not_finite };

parse_status parse_number(std::string_view s, double& value) {
  if (s.empty()) return parse_status::empty;
  const char* b = s.data();
  const char* e = b + s.size();
  // from_chars does not take a leading '+', which spreadsheets sometimes write.
  if (*b == '+' && e - b > 1 && (std::isdigit(static_cast<unsigned char>(b[1])) || b[1] == '.'))
    ++b;
  const auto [ptr, ec] = std::from_chars(b, e, value);
  if (ec == std::errc::result_out_of_range) return parse_status::out_of_range;
  if (ec != std::errc() || ptr != e) return parse_status::not_a_number;
  if (!std::isfinite(value)) return parse_status::not_finite;
  return parse_status::ok;
}

// The cell as the message shows it: at most 40 bytes, anything but printable ASCII as \xNN, so
// that a binary file cannot garble the terminal.
std::string quoted(std::string_view s) {
  constexpr std::size_t max_shown = 40;
  std::string out = "\"";
  for (const char c : s.substr(0, max_shown)) {
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7f) {
      out += c;
    } else {
      constexpr char hex[] = "0123456789abcdef";
      out += "\\x";
      out += hex[u >> 4];
      out += hex[u & 15];
    }
  }
  if (s.size() > max_shown) out += "...";
  return out + '"';
}

}  // namespace

std::vector<csv_column> read_csv_columns(const std::string& path,
                                         std::span<const std::size_t> columns, bool header) {
  const std::string source = path == "-" ? "<stdin>" : path;
  if (columns.empty()) throw input_error(source + ": no column to read");
  const std::string buf = read_all(path, source);
  if (buf.empty()) throw input_error(source + ": no readings: the file is empty");

  // No line holds more fields than bytes: a column beyond that is missing on every line, and the
  // clamp keeps the field table small (and its size from overflowing).
  const std::size_t wanted =
      std::min(*std::max_element(columns.begin(), columns.end()), buf.size()) + 1;
  std::vector<csv_column> out(columns.size());
  // Every line holds at most one reading per column: reserving that bound avoids the doubling
  // of a growing vector, which would otherwise dominate the peak memory.
  const std::size_t max_lines =
      static_cast<std::size_t>(std::count(buf.begin(), buf.end(), '\n')) + (buf.back() != '\n');
  for (std::size_t k = 0; k < columns.size(); ++k) {
    out[k].source = source;
    out[k].field = columns[k];
    out[k].values.reserve(max_lines);
  }

  std::vector<field> fields(wanted);
  std::vector<double> row(columns.size());
  bool first = true, header_seen = false;
  std::uint32_t line_no = 0;
  const char* p = buf.data();
  const char* const end = p + buf.size();
  while (p < end) {
    const char* nl =
        static_cast<const char*>(std::memchr(p, '\n', static_cast<std::size_t>(end - p)));
    if (nl == nullptr) nl = end;
    std::string_view line(p, static_cast<std::size_t>(nl - p));
    p = nl + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    const auto content = line.find_first_not_of(" \t");
    if (content == std::string_view::npos || line[content] == '#') continue;

    const auto position = [&](std::size_t offset) {
      return source + ':' + std::to_string(line_no) + ':' + std::to_string(offset + 1);
    };
    if (first && header) {
      first = false;
      header_seen = true;
      continue;
    }
    const std::size_t have = split(line, fields);
    bool numeric = true;
    for (std::size_t k = 0; k < columns.size() && numeric; ++k) {
      const std::size_t c = columns[k];
      if (c >= have) {
        throw input_error(position(line.size()) + ": the line has " + std::to_string(have) +
                          (have == 1 ? " field" : " fields") + ", but field " + std::to_string(c) +
                          " (0-based) is asked for");
      }
      const field& f = fields[c];
      switch (parse_number(f.text, row[k])) {
        case parse_status::ok:
          break;
        case parse_status::not_a_number:
          if (first) {  // the first line is taken as a header
            numeric = false;
            break;
          }
          throw input_error(position(f.offset) + ": field " + std::to_string(c) + " " +
                            quoted(f.text) + " is not a number");
        case parse_status::empty:
          throw input_error(position(f.offset) + ": field " + std::to_string(c) +
                            " is empty; a reading is needed");
        case parse_status::out_of_range:
          throw input_error(position(f.offset) + ": field " + std::to_string(c) + " " +
                            quoted(f.text) + " is out of the range of a double");
        case parse_status::not_finite:
          throw input_error(position(f.offset) + ": field " + std::to_string(c) + " " +
                            quoted(f.text) + " is not a finite number (NaN or infinity)");
      }
    }
    first = false;
    if (!numeric) {
      header_seen = true;
      continue;
    }
    for (std::size_t k = 0; k < columns.size(); ++k) {
      out[k].values.push_back(row[k]);
      out[k].positions.push(line_no, static_cast<std::uint32_t>(fields[columns[k]].offset + 1));
    }
  }
  if (out[0].values.empty())
    throw input_error(source + (header_seen ? ": no readings: only a header line"
                                            : ": no readings: only blank or comment lines"));
  // Only worth a copy when many lines held no reading.
  for (auto& c : out)
    if (c.values.capacity() - c.values.size() > c.values.size() / 8) c.values.shrink_to_fit();
  return out;
}

csv_column read_readings(const std::string& path, const csv_options& options) {
  const std::size_t column = options.column;
  return std::move(read_csv_columns(path, std::span(&column, 1), options.header)[0]);
}

}  // namespace mcpilot
