#pragma once
// Readings from CSV files (or standard input): one column of numbers, each remembered with the
// line and character column it came from, so that a reading the statistics reject later (a rate
// <= 0, a proportion that is not 0/1) can still be named as file:line:column.
//
// Format: fields separated by ',', surrounding blanks ignored, a field may be "double-quoted"
// ("" inside quotes is a quote). Lines end with LF, CRLF or a lone CR; a UTF-8 byte order mark at
// the start is skipped. Blank lines and lines starting with '#' are skipped. The first line is a
// header when `header` is set, or when one of the fields read from it is not a number.

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace mcpilot {

struct csv_options {
  std::size_t column = 0;  // 0-based field index
  bool header = false;     // the first line is a header even if it looks numeric
};

// Where each value came from. Files are usually regular (one reading per line, no blank lines,
// the field always at the same character column), so the positions are kept as a formula until
// the first irregularity and only then as arrays: no extra memory in the common case.
class reading_positions {
 public:
  void push(std::uint32_t line, std::uint32_t column);
  std::size_t size() const noexcept { return size_; }
  std::uint32_t line(std::size_t i) const;    // 1-based
  std::uint32_t column(std::size_t i) const;  // 1-based character column where the field starts

 private:
  std::size_t size_ = 0;
  std::uint32_t first_line_ = 0;
  std::uint32_t first_column_ = 0;
  std::vector<std::uint32_t> lines_;    // empty while line(i) == first_line_ + i
  std::vector<std::uint32_t> columns_;  // empty while column(i) == first_column_
};

struct csv_column {
  std::string source;  // the path as given, or "<stdin>"
  std::size_t field = 0;
  std::vector<double> values;
  reading_positions positions;
  // The line skipped as a header (0: none). `header_guessed` when it was skipped because field
  // `header_field_index` ("header_field", at most 40 bytes) is not a number, rather than because
  // the caller said the file has a header: worth telling the user, since "12abc" or "0x10" may
  // be a misread reading rather than a column name.
  std::uint32_t header_line = 0;
  bool header_guessed = false;
  std::string header_field;
  std::size_t header_field_index = 0;

  // "source:line:column" of values[i], the prefix of every message about that reading.
  std::string where(std::size_t i) const;
};

// Reads the fields `columns` (0-based) of every data line of `path` ("-" for standard input).
// Every value must be a finite number. Throws input_error, naming file:line:column and the field,
// for: a file that cannot be read, no readings at all (empty file, or only a header), a cell that
// is not a number (or is empty), NaN or infinity, a line without one of the fields, a NUL byte
// (at once: not a text file), and a line longer than 1 MiB.
// Cost: one streaming pass, O(bytes) time; memory is 8 bytes per reading and column plus a 64 KiB
// buffer (and the longest line), whatever the file's size.
std::vector<csv_column> read_csv_columns(const std::string& path,
                                         std::span<const std::size_t> columns, bool header);

// The common case: one column.
csv_column read_readings(const std::string& path, const csv_options& options = {});

}  // namespace mcpilot
