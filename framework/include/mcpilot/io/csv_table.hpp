#pragma once
// A CSV file with a header, read as text cells, for inputs whose columns are chosen by name and
// that hold words as well as numbers (a sweep's results table, `mcpilot scaling`'s n,time rows).
// Numeric single-column readings go through io/readings_csv.hpp, which keeps no text.
//
// Format as readings_csv: fields separated by ',', surrounding blanks ignored, a field may be
// "double-quoted" ("" inside quotes is a quote); blank lines and lines starting with '#' are
// skipped. The first remaining line is the header unless every one of its fields is a number.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mcpilot {

struct csv_row {
  std::uint32_t line = 0;             // 1-based
  std::vector<std::string> cells;     // as many as the line has
  std::vector<std::uint32_t> column;  // 1-based character column where each cell starts
};

struct csv_table {
  std::string source;               // the path as given, or "<stdin>"
  std::vector<std::string> header;  // empty when the file has no header line
  std::uint32_t header_line = 0;
  std::vector<csv_row> rows;

  // The index of the column named `name`, or, when `name` is all digits, that 0-based index.
  // nullopt when neither.
  std::optional<std::size_t> find(std::string_view name) const;
  // "source:line:column" of row r's cell c (the line's end when the cell is missing).
  std::string where(const csv_row& r, std::size_t c) const;
  // The header names joined by ", " for messages ("no header" when there is none).
  std::string columns() const;
};

// Reads `path` ("-" for standard input). Throws input_error for a file that cannot be read or
// holds no data line. O(bytes).
csv_table read_csv_table(const std::string& path);

// A cell as a finite number; nullopt when it is not one (empty, text, NaN, infinity).
std::optional<double> parse_csv_number(std::string_view cell);

// The writer's side: `s` as a field that read_csv_table reads back as `s`, double-quoted when it
// holds a comma, quote or line break, or starts with '#' (which would make a first field's line a
// comment).
std::string csv_field(std::string_view s);

}  // namespace mcpilot
