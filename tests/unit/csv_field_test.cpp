// csv_field, the writer's side of read_csv_table: every field it writes reads back as itself.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cli_test_support.hpp"
#include "mcpilot/io/csv_table.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::csv_field;
using mcpilot::read_csv_table;
using mcpilot::test::temp_file;

TEST(CsvField, QuotesOnlyWhatWouldBeMisread) {
  EXPECT_EQ(csv_field("wall_time"), "wall_time");
  EXPECT_EQ(csv_field("sleep 0.01"), "sleep 0.01");
  EXPECT_EQ(csv_field("a,b"), "\"a,b\"");
  EXPECT_EQ(csv_field("say \"hi\""), "\"say \"\"hi\"\"\"");
  EXPECT_EQ(csv_field("two\nlines"), "\"two\nlines\"");
  EXPECT_EQ(csv_field("#first"), "\"#first\"");  // a line starting with '#' is a comment
  EXPECT_EQ(csv_field("a#b"), "a#b");
  EXPECT_EQ(csv_field(""), "");
}

TEST(CsvField, EveryFieldReadsBackAsItself) {
  const std::vector<std::string> names = {"plain", "a,b", "say \"hi\"", "#first", "x\ry", " "};
  std::string text;
  for (const auto& n : names) text += csv_field(n) + ",1\n";
  const temp_file f("name,value\n" + text);
  const auto t = read_csv_table(f.path());
  ASSERT_EQ(t.rows.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) {
    SCOPED_TRACE(names[i]);
    ASSERT_EQ(t.rows[i].cells.size(), 2u);
    // Surrounding blanks are ignored by the reader, so " " reads back empty; every other name
    // comes back exactly.
    EXPECT_EQ(t.rows[i].cells[0], names[i] == " " ? "" : names[i]);
  }
}

}  // namespace MCPILOT_TEST_FILE
