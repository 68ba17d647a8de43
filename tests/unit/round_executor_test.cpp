// The round-executor seam (round_executor.hpp): a session over an executor that splits every
// round into blocks the way an MPI job does (contiguous blocks, run in any order into buffers of
// their own, copied back in index order, several blocks per gather) gives the local executor's
// result bit for bit, and the same failure. The MPI executor itself is tested under mpirun
// (tests/mpi/identical.sh).
#include <gtest/gtest.h>

#include <boost/random/normal_distribution.hpp>
#include <cstring>
#include <optional>
#include <stdexcept>

#include "mcpilot/session.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot;

class normal_model : public model {
 public:
  void declare(model_spec& s) const override {
    s.describe("normal readings");
    s.quantity("x");
  }
  void replicate(replication& r) const override {
    if (r.index() == fail_at || r.index() == fail_also) throw std::runtime_error("planted");
    boost::random::normal_distribution<double> d(10.0, 2.0);
    r.record(0, d(r.rng()));
  }
  std::uint64_t fail_at = ~0ull, fail_also = ~0ull;
};

// `blocks` pretend ranks, run last to first; each fills a buffer of its own, as a remote rank
// would, and its rows are copied into place.
class block_executor final : public round_executor {
 public:
  explicit block_executor(std::uint64_t blocks) : blocks_(blocks), runner_(make_tbb_runner(2)) {}

  std::uint64_t replications(std::uint64_t begin, std::uint64_t count, std::size_t width,
                             const std::function<void(std::uint64_t)>& task, std::span<double> rows,
                             const std::atomic<bool>& cut) override {
    (void)task;  // it writes into the session's buffer; each block here writes into its own
    std::vector<std::uint64_t> ran(blocks_);
    std::vector<std::optional<task_failure>> failed(blocks_);
    for (std::uint64_t b = blocks_; b-- > 0;) {
      const std::uint64_t lo = count * b / blocks_, hi = count * (b + 1) / blocks_;
      std::vector<double> own((hi - lo) * width);
      model_spec spec;
      model_.declare(spec);
      try {
        ran[b] = runner_->run(
            begin + lo, begin + hi,
            [&](std::uint64_t i) {
              replication rep(spec, seed, i,
                              std::span<double>(own).subspan((i - begin - lo) * width, width));
              model_.replicate(rep);
            },
            &cut);
      } catch (const task_failure& f) {
        failed[b] = f;
      }
      std::memcpy(rows.data() + lo * width, own.data(), own.size() * sizeof(double));
    }
    for (std::uint64_t b = 0; b < blocks_; ++b) {
      const std::uint64_t lo = count * b / blocks_, hi = count * (b + 1) / blocks_;
      if (failed[b]) throw *failed[b];
      if (ran[b] < hi - lo) return lo + ran[b];
    }
    return count;
  }
  void advance_streams(
      std::size_t, std::uint64_t, const std::function<void(std::uint64_t)>&,
      const std::function<std::vector<std::vector<double>>&(std::size_t)>&) override {
    throw std::logic_error("not used: replication style");
  }
  std::uint64_t chunk(std::uint64_t local) const override { return local * blocks_; }
  unsigned concurrency() const override { return 2; }

  normal_model model_;
  std::uint64_t seed = 0;

 private:
  std::uint64_t blocks_;
  std::unique_ptr<runner> runner_;
};

session_settings settings(std::uint64_t seed) {
  session_settings s;
  s.seed = seed;
  s.threads = 2;
  s.engine.session_precision = *preset("normal");
  s.engine.session_precision.ci_perc = 0.01;
  return s;
}

TEST(RoundExecutor, BlocksGatheredInIndexOrderGiveTheLocalResult) {
  normal_model m;
  model_spec spec;
  m.declare(spec);
  const auto local = run_session(m, spec, settings(7));
  for (std::uint64_t blocks : {1u, 3u, 7u}) {
    auto exec = std::make_shared<block_executor>(blocks);
    exec->seed = 7;
    auto s = settings(7);
    s.executor = exec;
    const auto split = run_session(m, spec, s);
    EXPECT_EQ(split.stopped_because, stop_reason::converged);
    EXPECT_EQ(split.replications, local.replications) << blocks;
    EXPECT_EQ(split.rounds, local.rounds);
    EXPECT_EQ(*split.quantities[0].stats.mean, *local.quantities[0].stats.mean);
    EXPECT_EQ(*split.quantities[0].stats.ci_low, *local.quantities[0].stats.ci_low);
    EXPECT_EQ(split.readings->readings(0), local.readings->readings(0));
  }
}

TEST(RoundExecutor, AFailureInALaterBlockIsTheLowestIndexAsLocally) {
  normal_model m;
  m.fail_at = 700;
  m.fail_also = 900;
  model_spec spec;
  m.declare(spec);
  const auto local = run_session(m, spec, settings(3));
  ASSERT_TRUE(local.error.has_value());
  auto exec = std::make_shared<block_executor>(5);
  exec->seed = 3;
  exec->model_.fail_at = 700;
  exec->model_.fail_also = 900;
  auto s = settings(3);
  s.executor = exec;
  const auto split = run_session(m, spec, s);
  ASSERT_TRUE(split.error.has_value());
  EXPECT_EQ(*split.error, *local.error);
  EXPECT_NE(split.error->find("replication 700"), std::string::npos) << *split.error;
  EXPECT_EQ(split.replications, 700u);
  EXPECT_EQ(split.readings->readings(0), local.readings->readings(0));
}

}  // namespace MCPILOT_TEST_FILE
