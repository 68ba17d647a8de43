// `bench --output csv[:COLUMNS]`: the column list and a program's stdout read as readings. The
// input is the --output value, a line "%%", then the stdout text. Every outcome is readings of the
// declared width or an input_error quoting the line, never a crash or an internal error.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "mcpilot/error.hpp"
#include "mcpilot/programs/bench_words.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto sep = input.find("\n%%\n");
  const std::string output(sep == std::string_view::npos ? std::string_view("csv")
                                                         : input.substr(0, sep));
  const std::string text(sep == std::string_view::npos ? input : input.substr(sep + 4));
  try {
    const auto columns = mcpilot::programs::csv_columns(output);
    if (columns.empty()) return 0;  // not a csv output: nothing is parsed
    const auto rows = mcpilot::programs::parse_output(text, columns, "fuzz");
    for (const auto& row : rows)
      if (row.size() != columns.size()) std::abort();
  } catch (const mcpilot::input_error&) {
  }
  return 0;
}
