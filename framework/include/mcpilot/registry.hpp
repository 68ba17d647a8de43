#pragma once
// The models an executable knows, by name. `mcpilot` registers the built-in ones; a user's own
// executable registers theirs and calls cli_main with its registry.

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "mcpilot/model.hpp"
#include "mcpilot/validate.hpp"

namespace mcpilot {

class model_registry {
 public:
  using factory = std::function<std::unique_ptr<model>()>;

  template <class M>
  model_registry& add(std::string name) {
    factories_[std::move(name)] = [] { return std::make_unique<M>(); };
    return *this;
  }
  model_registry& add(std::string name, factory f) {
    factories_[std::move(name)] = std::move(f);
    return *this;
  }

  // nullptr when no model has that name.
  std::unique_ptr<model> create(const std::string& name) const {
    auto it = factories_.find(name);
    return it == factories_.end() ? nullptr : it->second();
  }
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [n, f] : factories_) out.push_back(n);
    return out;
  }

  // Validation studies of these models (their estimates against exact values), run by
  // `validate` after the framework's own (validate.hpp).
  model_registry& add_study(validation_study s) {
    studies_.push_back(std::move(s));
    return *this;
  }
  const std::vector<validation_study>& studies() const { return studies_; }

 private:
  std::map<std::string, factory> factories_;
  std::vector<validation_study> studies_;
};

}  // namespace mcpilot
