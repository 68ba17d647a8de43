#pragma once
// Range checks for numeric options, the same for every command. CLI11 reads "-5" into an unsigned
// option as 2^64 - 5 and "2^64" as anything, so integer options are checked as text first: digits
// only, no overflow, within [min, max]. A failed check is a usage error (exit 2) naming the
// option and the value.

#include <CLI/CLI.hpp>

#include <cstdint>
#include <string>

namespace mcpilot::cli {

// An unsigned integer option within [min, max]; `what` names the kind of value in messages
// ("a field index", "a seed").
CLI::Validator unsigned_in(std::uint64_t min, std::uint64_t max, const std::string& what);

// A real number option within (lo, hi), ends excluded; hi may be infinity ("> lo").
CLI::Validator number_between(double lo, double hi);

// A real number option within [lo, hi], ends included; nan and text refused.
CLI::Validator number_from(double lo, double hi);

// A file name option that cannot be empty (`--json ""` would otherwise be silently ignored).
CLI::Validator non_empty_path();

}  // namespace mcpilot::cli
