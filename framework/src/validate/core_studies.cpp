#include "mcpilot/validate.hpp"

namespace mcpilot {

std::vector<validation_study> interval_studies();     // interval_studies.cpp
std::vector<validation_study> changepoint_studies();  // changepoint_studies.cpp
std::vector<validation_study> bench_studies();        // bench_studies.cpp

std::vector<validation_study> core_studies() {
  std::vector<validation_study> all = interval_studies();
  for (auto& s : changepoint_studies()) all.push_back(std::move(s));
  for (auto& s : bench_studies()) all.push_back(std::move(s));
  all.push_back(scaling_labels_study());
  all.push_back(skewed_interval_study());
  all.push_back(skewed_sessions_study());
  return all;
}

}  // namespace mcpilot
