#pragma once
// configure() read a parameter as another type than the model's own declaration gives it
// (p.integer() on a parameter declared with s.number()): a bug in the model's code, which no
// config can fix, so the config layer names the model's calls rather than a line of the config.
// Thrown by parameters' readers (src/parameters.cpp), caught in src/io/config_model.cpp.

#include "mcpilot/error.hpp"

namespace mcpilot {

class parameter_read_error : public input_error {
 public:
  using input_error::input_error;
};

}  // namespace mcpilot
