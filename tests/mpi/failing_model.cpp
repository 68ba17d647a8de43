// mpi-failing: a model whose replications 700 and 900 throw, so the MPI test can check that a
// failure on any rank ends the session as on one process: the lowest failing index named, the
// readings before it kept (tests/mpi/identical.sh).
#include <boost/random/uniform_01.hpp>
#include <cstdint>
#include <stdexcept>

#include "mcpilot/cli.hpp"
#include "mcpilot/model.hpp"
#include "mcpilot/registry.hpp"

namespace {

class failing_model : public mcpilot::model {
 public:
  void declare(mcpilot::model_spec& s) const override {
    s.describe("Uniform readings; two replications throw");
    s.integer("fail_at", 700, "the lower failing replication").at_least(0);
    s.integer("fail_also", 900, "the higher failing replication").at_least(0);
    s.quantity("u").describe("a uniform reading");
  }
  void configure(const mcpilot::parameters& p) override {
    fail_at_ = static_cast<std::uint64_t>(p.integer("fail_at"));
    fail_also_ = static_cast<std::uint64_t>(p.integer("fail_also"));
  }
  void replicate(mcpilot::replication& r) const override {
    if (r.index() == fail_at_ || r.index() == fail_also_)
      throw std::runtime_error("planted failure");
    boost::random::uniform_01<double> u;
    r.record("u", u(r.rng()));
  }

 private:
  std::uint64_t fail_at_ = 700, fail_also_ = 900;
};

}  // namespace

int main(int argc, char** argv) {
  mcpilot::model_registry models;
  models.add<failing_model>("failing");
  return mcpilot::cli_main(argc, argv, models);
}
