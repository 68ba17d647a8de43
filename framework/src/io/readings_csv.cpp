#include "mcpilot/io/readings_csv.hpp"

#include <sys/stat.h>
#include <algorithm>
#include <limits>
#include <vector>

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

// A line longer than this is not a line of readings (a binary file, or one without line ends):
// refusing it keeps the memory bounded whatever the file holds.
constexpr std::size_t max_line_bytes = std::size_t{1} << 20;
constexpr std::size_t chunk_bytes = std::size_t{1} << 16;

// The input, line by line, through one buffer of a chunk plus the longest line: the memory does
// not grow with the file. A line ends at "\n", "\r\n" or a lone "\r" (old Mac files). A UTF-8
// byte order mark before the first line is skipped. A NUL byte is refused as soon as its chunk is
// read: text files of readings never hold one, and /dev/zero or a sparse file would otherwise be
// read to the end before anything was said.
class line_reader {
 public:
  line_reader(const std::string& path, const std::string& source) : source_(source) {
    f_.reset(path == "-" ? stdin : std::fopen(path.c_str(), "rb"));
    if (!f_) throw input_error(source + ": cannot open: " + std::strerror(errno));
    struct stat st {};
    if (::fstat(::fileno(f_.get()), &st) == 0) {
      if (S_ISDIR(st.st_mode)) throw input_error(source + ": cannot read: it is a directory");
      if (S_ISREG(st.st_mode)) size_ = static_cast<std::size_t>(st.st_size);
    }
    buf_.resize(chunk_bytes);
    fill();
    if (end_ >= 3 && std::memcmp(buf_.data(), "\xEF\xBB\xBF", 3) == 0) begin_ = 3;
  }

  // The next line, without its end; false at the end of the input. The view lives until the
  // next call.
  bool next(std::string_view& line) {
    for (;;) {
      const char* b = buf_.data() + begin_;
      const char* e = buf_.data() + end_;
      const char* lf = find(lf_, '\n', b, e);
      const char* stop = find(cr_, '\r', b, lf);  // the first line end: '\r' or '\n'
      // A '\r' as the last byte read may be the first half of "\r\n": read on to know.
      const bool complete = stop < e && !(*stop == '\r' && stop + 1 == e && !eof_);
      if (complete || (eof_ && b < e)) {
        line = std::string_view(b, static_cast<std::size_t>(stop - b));
        std::size_t used = line.size();
        if (stop < e) used += (*stop == '\r' && stop + 1 < e && stop[1] == '\n') ? 2 : 1;
        begin_ += used;
        if (++line_no_ > std::numeric_limits<std::uint32_t>::max())
          throw input_error(source_ + ": more than 4294967295 lines");
        return true;
      }
      if (eof_) return false;
      if (static_cast<std::size_t>(e - b) > max_line_bytes)
        throw input_error(source_ + ':' + std::to_string(line_no_ + 1) +
                          ": the line is longer than " + std::to_string(max_line_bytes) +
                          " bytes: this is not a file of readings");
      fill();
    }
  }

  std::uint32_t line_no() const { return static_cast<std::uint32_t>(line_no_); }

  // About how many lines the input holds, to size the readings once: exact when the first chunk
  // is the whole file, else the file's size over the first chunk's bytes per line, a little
  // generous; 0 when unknown (a pipe).
  std::size_t estimated_lines() const { return estimate_; }

 private:
  // Memoised memchr: each byte is searched at most once per character, however many lines a
  // chunk holds. Returns `to` when `c` is not in [from, to).
  const char* find(std::ptrdiff_t& cache, char c, const char* from, const char* to) {
    const char* base = buf_.data();
    if (cache >= 0 && base + cache >= from) return std::min(base + cache, to);
    const void* hit = std::memchr(from, c, static_cast<std::size_t>(to - from));
    cache = hit ? static_cast<const char*>(hit) - base : -1;
    return hit ? static_cast<const char*>(hit) : to;
  }

  // Moves what is left to the front and reads one more chunk after it. Returns false at the end.
  bool fill() {
    lf_ = cr_ = -1;
    if (eof_) return false;
    if (begin_ > 0) {
      std::memmove(buf_.data(), buf_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (buf_.size() - end_ < chunk_bytes) buf_.resize(end_ + chunk_bytes);
    const std::size_t got = std::fread(buf_.data() + end_, 1, chunk_bytes, f_.get());
    if (got == 0) {
      if (std::ferror(f_.get()))
        throw input_error(source_ + ": cannot read: " + std::strerror(errno));
      eof_ = true;
      return false;
    }
    if (const void* nul = std::memchr(buf_.data() + end_, 0, got))
      reject_nul(static_cast<const char*>(nul));
    if (first_) {
      first_ = false;
      const auto count = [&](char c) {
        return static_cast<std::size_t>(std::count(buf_.data(), buf_.data() + got, c));
      };
      const std::size_t lines = std::max(count('\n'), count('\r')) + 1;
      if (size_ > 0 && got >= size_)
        estimate_ = lines;
      else if (size_ > 0)
        estimate_ = static_cast<std::size_t>(static_cast<double>(size_) / static_cast<double>(got) *
                                             static_cast<double>(lines) * 1.03) +
                    64;
    }
    end_ += got;
    return true;
  }

  [[noreturn]] void reject_nul(const char* nul) const {
    std::size_t line = line_no_ + 1;
    const char* start = buf_.data() + begin_;
    for (const char* p = start; p < nul; ++p) {
      if (*p == '\n' || (*p == '\r' && p + 1 < nul && p[1] != '\n')) {
        ++line;
        start = p + 1;
      }
    }
    throw input_error(source_ + ':' + std::to_string(line) + ':' + std::to_string(nul - start + 1) +
                      ": a NUL byte: this is not a text file of readings");
  }

  std::string source_;
  std::unique_ptr<std::FILE, file_closer> f_;
  std::vector<char> buf_;
  std::size_t begin_ = 0, end_ = 0, size_ = 0, estimate_ = 0;
  std::size_t line_no_ = 0;
  std::ptrdiff_t lf_ = -1, cr_ = -1;  // offsets of the next '\n' / '\r' found, -1: not searched
  bool eof_ = false, first_ = true;
};

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
  line_reader in(path, source);

  // No line holds more fields than the longest line has bytes: a column beyond that is missing on
  // every line, and the clamp keeps the field table small (and its size from overflowing).
  const std::size_t wanted =
      std::min(*std::max_element(columns.begin(), columns.end()), max_line_bytes) + 1;
  std::vector<csv_column> out(columns.size());
  // Every line holds at most one reading per column: reserving the estimate avoids the doubling
  // of a growing vector, which would otherwise dominate the peak memory.
  for (std::size_t k = 0; k < columns.size(); ++k) {
    out[k].source = source;
    out[k].field = columns[k];
    out[k].values.reserve(in.estimated_lines());
  }

  std::vector<field> fields(wanted);
  std::vector<double> row(columns.size());
  bool first = true, any_line = false;
  std::string_view line;
  while (in.next(line)) {
    any_line = true;
    const std::uint32_t line_no = in.line_no();
    const auto content = line.find_first_not_of(" \t");
    if (content == std::string_view::npos || line[content] == '#') continue;

    const auto position = [&](std::size_t offset) {
      return source + ':' + std::to_string(line_no) + ':' + std::to_string(offset + 1);
    };
    if (first && header) {
      first = false;
      for (auto& c : out) c.header_line = line_no;
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
          if (first) {  // the first line is taken as a header, and the caller can say so
            numeric = false;
            for (auto& col : out) {
              col.header_line = line_no;
              col.header_guessed = true;
              col.header_field = std::string(f.text.substr(0, 40));
              col.header_field_index = c;
            }
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
    if (!numeric) continue;
    for (std::size_t k = 0; k < columns.size(); ++k) {
      out[k].values.push_back(row[k]);
      out[k].positions.push(line_no, static_cast<std::uint32_t>(fields[columns[k]].offset + 1));
    }
  }
  if (!any_line) throw input_error(source + ": no readings: the file is empty");
  if (out[0].values.empty())
    throw input_error(source + (out[0].header_line ? ": no readings: only a header line"
                                                   : ": no readings: only blank or comment lines"));
  // Only worth a copy when many lines held no reading (or the estimate was generous).
  for (auto& c : out)
    if (c.values.capacity() - c.values.size() > c.values.size() / 8) c.values.shrink_to_fit();
  return out;
}

csv_column read_readings(const std::string& path, const csv_options& options) {
  const std::size_t column = options.column;
  return std::move(read_csv_columns(path, std::span(&column, 1), options.header)[0]);
}

}  // namespace mcpilot
