#pragma once
// Errors that reach the user. The CLI maps input_error to exit code 2 and prints what() as is,
// so every message must already name where the problem is (file:line:column, or the field).

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mcpilot {

class input_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A configuration this machine cannot hold (more memory than the process may use): refused before
// anything is allocated, and before a sweep starts when any of its points is one.
class resource_error : public input_error {
 public:
  using input_error::input_error;
};

// A single reading that a statistic cannot accept (a rate <= 0, a proportion that is not 0/1).
// The index is into the span the statistic was given, so the caller can name the file position.
class reading_error : public input_error {
 public:
  reading_error(std::size_t index, const std::string& what) : input_error(what), index_(index) {}
  std::size_t index() const noexcept { return index_; }

 private:
  std::size_t index_;
};

}  // namespace mcpilot
