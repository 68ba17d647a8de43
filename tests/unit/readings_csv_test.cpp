// The CSV reader: values, the file:line:column of each, header detection, and every kind of bad
// input named at its position.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>

#include "cli_test_support.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/io/readings_csv.hpp"

namespace MCPILOT_TEST_FILE {

using mcpilot::csv_options;
using mcpilot::input_error;
using mcpilot::read_readings;
using mcpilot::test::temp_file;

// The message of the input_error that reading `content` throws ("" if none is thrown).
std::string error_of(const std::string& content, const csv_options& opt = {}) {
  const temp_file f(content);
  try {
    read_readings(f.path(), opt);
  } catch (const input_error& e) {
    // Every message starts with the file's name, so the user knows which file is meant.
    const std::string what = e.what();
    EXPECT_EQ(what.rfind(f.path(), 0), 0u) << what;
    return what.substr(f.path().size());
  }
  return "";
}

TEST(ReadingsCsv, ReadsOneColumnWithItsPositions) {
  const temp_file f("1.5\n-2\n3e2\n+4.25\n");
  const auto c = read_readings(f.path());
  ASSERT_EQ(c.values, (std::vector<double>{1.5, -2, 300, 4.25}));
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(c.positions.line(i), i + 1);
    EXPECT_EQ(c.positions.column(i), 1u);
  }
  EXPECT_EQ(c.where(2), f.path() + ":3:1");
}

TEST(ReadingsCsv, NonNumericFirstLineIsAHeader) {
  const temp_file f("time,latency_ms\n0, 10\n1, 12.5\n");
  const auto c = read_readings(f.path(), {1, false});
  ASSERT_EQ(c.values, (std::vector<double>{10, 12.5}));
  EXPECT_EQ(c.positions.line(0), 2u);
  EXPECT_EQ(c.positions.column(0), 4u);  // after "0, "
}

TEST(ReadingsCsv, HeaderFlagSkipsANumericFirstLine) {
  const temp_file f("2024\n5\n6\n");
  EXPECT_EQ(read_readings(f.path(), {0, true}).values, (std::vector<double>{5, 6}));
  EXPECT_EQ(read_readings(f.path(), {0, false}).values, (std::vector<double>{2024, 5, 6}));
}

TEST(ReadingsCsv, SkipsBlankAndCommentLinesAndKeepsTrueLineNumbers) {
  const temp_file f("# measured on host A\r\nx\r\n1\r\n\r\n  \r\n2\r\n# done\r\n3");
  const auto c = read_readings(f.path());
  ASSERT_EQ(c.values, (std::vector<double>{1, 2, 3}));
  EXPECT_EQ(c.positions.line(0), 3u);
  EXPECT_EQ(c.positions.line(1), 6u);
  EXPECT_EQ(c.positions.line(2), 8u);
}

TEST(ReadingsCsv, IrregularColumnsKeepTheirOwnPositions) {
  const temp_file f("a,b\n1,10\n100,20\n\"x,y\",30\n");
  const auto c = read_readings(f.path(), {1, false});
  ASSERT_EQ(c.values, (std::vector<double>{10, 20, 30}));
  EXPECT_EQ(c.positions.column(0), 3u);
  EXPECT_EQ(c.positions.column(1), 5u);
  EXPECT_EQ(c.positions.column(2), 7u);  // the quoted comma does not split the field
}

TEST(ReadingsCsv, QuotedNumbersAreNumbers) {
  const temp_file f("\"1.5\",\" 2 \"\n");
  EXPECT_EQ(read_readings(f.path(), {0, false}).values, std::vector<double>{1.5});
}

TEST(ReadingsCsv, MalformedQuotesAreNotSilentlyCut) {
  EXPECT_EQ(error_of("1\n\"2\"x,3\n"), ":2:1: field 0 \"\"2\"x\" is not a number");
  EXPECT_EQ(error_of("1\n\"2\n"), ":2:1: field 0 \"\"2\" is not a number");
  const temp_file f("\"1\" ,\"a,b\"\n");  // blanks after the closing quote are fine
  EXPECT_EQ(read_readings(f.path()).values, std::vector<double>{1});
}

TEST(ReadingsCsv, RoundTripsEveryDoubleExactly) {
  std::mt19937_64 rng(7);
  std::vector<double> x(20000);
  for (double& v : x) v = std::ldexp(static_cast<double>(rng() >> 11), -40) - 1e3;
  const temp_file f(mcpilot::test::column_csv(x));
  EXPECT_EQ(read_readings(f.path()).values, x);
}

TEST(ReadingsCsv, TwoColumnsForWps) {
  const temp_file f("work,seconds\n100,4.3\n200,4.8\n");
  const std::size_t cols[] = {0, 1};
  const auto c = mcpilot::read_csv_columns(f.path(), cols, false);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c[0].values, (std::vector<double>{100, 200}));
  EXPECT_EQ(c[1].values, (std::vector<double>{4.3, 4.8}));
  EXPECT_EQ(c[1].where(1), f.path() + ":3:5");
}

TEST(ReadingsCsv, NonNumericCellIsNamedAtLineAndColumn) {
  EXPECT_EQ(error_of("x\n1\n2\n3.5abc\n"), ":4:1: field 0 \"3.5abc\" is not a number");
  EXPECT_EQ(error_of("a,b\n1,2\n3, oops\n", {1, false}), ":3:4: field 1 \"oops\" is not a number");
}

TEST(ReadingsCsv, EmptyCellIsAnError) {
  EXPECT_EQ(error_of("x,y\n1,2\n3,\n", {1, false}), ":3:3: field 1 is empty; a reading is needed");
}

TEST(ReadingsCsv, NanAndInfinityAreRejected) {
  EXPECT_NE(error_of("1\nnan\n").find(":2:1: field 0 \"nan\" is not a finite number"),
            std::string::npos);
  EXPECT_NE(error_of("1\n-inf\n").find(":2:1: field 0 \"-inf\" is not a finite number"),
            std::string::npos);
  EXPECT_NE(error_of("1\n1e400\n").find(":2:1: field 0 \"1e400\" is out of the range"),
            std::string::npos);
}

TEST(ReadingsCsv, MissingColumnIsNamed) {
  EXPECT_EQ(error_of("1,2\n3\n", {1, false}),
            ":2:2: the line has 1 field, but field 1 (0-based) is asked for");
}

TEST(ReadingsCsv, AbsurdColumnIsMissingNotAnOverflow) {
  EXPECT_EQ(error_of("1,2\n", {static_cast<std::size_t>(-1), false}),
            ":1:4: the line has 2 fields, but field 18446744073709551615 (0-based) is asked for");
}

TEST(ReadingsCsv, BinaryBytesAreEscapedInMessages) {
  EXPECT_EQ(error_of("x\n1\n\x01\xc3\xa9\n"), ":3:1: field 0 \"\\x01\\xc3\\xa9\" is not a number");
}

TEST(ReadingsCsv, EmptyOrHeaderOnlyFilesHaveNoReadings) {
  EXPECT_EQ(error_of(""), ": no readings: the file is empty");
  EXPECT_EQ(error_of("latency\n"), ": no readings: only a header line");
  EXPECT_EQ(error_of("\n# nothing\n\n"), ": no readings: only blank or comment lines");
}

TEST(ReadingsCsv, UnreadableFiles) {
  try {
    read_readings("/nonexistent/readings.csv");
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_STREQ(e.what(), "/nonexistent/readings.csv: cannot open: No such file or directory");
  }
  EXPECT_THROW(read_readings(std::filesystem::temp_directory_path().string()), input_error);
}

}  // namespace MCPILOT_TEST_FILE

namespace MCPILOT_TEST_FILE {

TEST(ReadingsCsvStreaming, CrLfSplitAcrossChunksIsOneLineEnd) {
  // The reader fills 64 KiB at a time: put a "\r\n" across that boundary and a lone '\r' after.
  const std::size_t ones = 32766;  // "x\n" and the ones fill bytes 0..65533
  std::string text = "x\n";
  for (std::size_t i = 0; i < ones; ++i) text += "1\n";
  text += "2\r\n3\r4\n";  // '2' at 65534, '\r' at 65535 (the chunk's last byte), '\n' at 65536
  ASSERT_EQ(text[65535], '\r');
  const temp_file f(text);
  const auto c = read_readings(f.path());
  ASSERT_EQ(c.values.size(), ones + 3);
  EXPECT_EQ(c.values[ones], 2);
  EXPECT_EQ(c.values[ones + 1], 3);
  EXPECT_EQ(c.values[ones + 2], 4);
  EXPECT_EQ(c.positions.line(ones + 2), ones + 4);  // header, the ones, then 2, 3, 4
}

TEST(ReadingsCsvStreaming, LongLinesAreRefused) {
  const std::string e = error_of(std::string(2 << 20, ' '));
  EXPECT_NE(e.find(":1: the line is longer than"), std::string::npos) << e;
}

TEST(ReadingsCsvStreaming, GuessedHeaderIsReported) {
  const temp_file f("12abc,7\n1,2\n");
  const auto c = read_readings(f.path());
  EXPECT_EQ(c.header_line, 1u);
  EXPECT_TRUE(c.header_guessed);
  EXPECT_EQ(c.header_field, "12abc");
  const auto d = read_readings(f.path(), {1, true});
  EXPECT_EQ(d.header_line, 1u);
  EXPECT_FALSE(d.header_guessed);
}

TEST(ReadingsCsvStreaming, MemoryIsEightBytesPerReading) {
  // 200000 readings: the vector is reserved from the file's size and bytes per line, so its
  // capacity stays within the reader's 3% margin (plus 64) of the count, not a doubling's 2x.
  std::string text = "x\n";
  for (int i = 0; i < 200000; ++i) text += std::to_string(i % 97) + ".5\n";
  const temp_file f(text);
  const auto c = read_readings(f.path());
  ASSERT_EQ(c.values.size(), 200000u);
  EXPECT_LE(c.values.capacity(), 200000 * 1.125);
}

}  // namespace MCPILOT_TEST_FILE
