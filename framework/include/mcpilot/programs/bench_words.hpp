#pragma once
// `mcpilot bench`'s text: the positional words as command lines, the work amount in a line, and a
// program's stdout under --output csv as readings.

#include <cstddef>
#include <string>
#include <vector>

namespace mcpilot::programs {

// The column names of --output csv[:COLUMNS] ("reading" for plain csv); none for "time" or any
// other value. input_error for an empty name.
std::vector<std::string> csv_columns(const std::string& output);

// Each non-empty line of `text`: one number per column. A header line equal to the names is
// skipped. input_error, quoting the line and its number, for a line that does not parse.
std::vector<std::vector<double>> parse_output(const std::string& text,
                                              const std::vector<std::string>& columns,
                                              const std::string& command);

std::string replace_all(std::string s, const std::string& from, const std::string& to);

// A work amount as the integer that replaces %WORK_AMOUNT%.
std::string format_work(double w);

// The positional words as command lines. Words with spaces are whole command lines each, as in
// hyperfine (`bench 'sort a' 'sort b'`); words without are one command and its arguments
// (`bench -- sleep 0.1`), unless one -n name is given per word.
std::vector<std::string> group_commands(const std::vector<std::string>& words, std::size_t names);

}  // namespace mcpilot::programs
