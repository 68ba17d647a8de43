// write_columns, the one aligner of the run and sweep tables, `models`, `describe` and
// `changepoints`: widths, alignment, indent, and no trailing spaces.
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "mcpilot/io/report.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

std::string columns(const std::vector<std::vector<std::string>>& rows,
                    const std::vector<bool>& left, std::size_t indent = 0) {
  std::ostringstream out;
  write_columns(out, rows, left, indent);
  return out.str();
}

TEST(WriteColumns, EachColumnAsWideAsItsWidestCellTwoSpacesBetween) {
  EXPECT_EQ(columns({{"name", "n"}, {"x", "1000"}}, {true, false}),
            "name     n\n"
            "x     1000\n");
  EXPECT_EQ(columns({{"a", "bb"}, {"ccc", "d"}}, {false, true}),
            "  a  bb\n"
            "ccc  d\n");
}

TEST(WriteColumns, IndentedAndWithoutTrailingSpaces) {
  // An empty last cell, and a left-aligned last column, leave nothing at the end of a line.
  EXPECT_EQ(columns({{"segment", "mean", ""}, {"1", "4.2", "stable"}, {"2", "3", ""}},
                    {true, true, true}, 2),
            "  segment  mean\n"
            "  1        4.2   stable\n"
            "  2        3\n");
  EXPECT_EQ(columns({}, {true}), "");
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
