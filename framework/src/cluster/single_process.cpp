// Built when MCPILOT_MPI is off: every run is one process, rank 0 of 1.
#include <stdexcept>

#include "mcpilot/cluster.hpp"

namespace mcpilot {

cluster_scope::cluster_scope(int&, char**&) {}
cluster_scope::~cluster_scope() = default;

bool cluster_active() {
  return false;
}
int cluster_rank() {
  return 0;
}
int cluster_size() {
  return 1;
}
std::vector<std::string> cluster_hosts() {
  return {};
}
std::string cluster_library() {
  return {};
}
std::string cluster_plugin() {
  return {};
}

void cluster_expect_setup() {}
int cluster_agree_setup(bool ok) {
  return ok ? -1 : 0;
}
bool cluster_reports_error() {
  return true;
}

std::shared_ptr<round_executor> make_cluster_executor(unsigned, const std::string&) {
  throw std::logic_error("make_cluster_executor: this build has no MPI (MCPILOT_MPI is off)");
}
void cluster_release_workers(int) {}
int run_cluster_worker(const model&, const model_spec&, const session_settings&,
                       const std::atomic<bool>*) {
  throw std::logic_error("run_cluster_worker: this build has no MPI (MCPILOT_MPI is off)");
}

}  // namespace mcpilot
