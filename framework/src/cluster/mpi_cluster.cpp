// Built when MCPILOT_MPI is on. Rank 0 runs the session; each round it broadcasts a command (run
// these replications, advance the streams, send the stream states, or stop), every rank runs its
// contiguous block of the indices on its own oneTBB pool, and the results come back to rank 0 by
// a gather in rank order, which is index order. Only the calling (main) thread makes MPI calls,
// and it makes them through the plug-in of mpi_transport.hpp, loaded only when mpirun or srun
// launched the process.

#include <dlfcn.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <limits>
#include <utility>

#include "../limit_watch.hpp"
#include "../round_tasks.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/cluster.hpp"
#include "mcpilot/error.hpp"
#include "mcpilot/rng.hpp"
#include "mpi_transport.hpp"

namespace mcpilot {

namespace {

bool active = false;
int my_rank = 0, ranks = 1;
std::vector<std::string> hosts;
bool setup_pending = false;
bool workers_waiting = false;
std::string lost_hint;

const mcpilot_mpi_transport* mpi = nullptr;
std::string plugin_path, library_version;

bool launched_by_mpi() {
  // mpirun (Open MPI), and srun or other PMI/PMIx launchers.
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    if (std::getenv(v)) return true;
  return false;
}

// The plug-in: where MCPILOT_MPI_PLUGIN says; else beside an installed program (PREFIX/bin/x
// looks in PREFIX/lib/mcpilot, so that an installed tree may move); else where CMake was
// configured to install it; else the build tree's. The build tree comes last because the
// library, and with it that path, is installed too: a program built on an installed library
// should not load code from a folder that may since have been removed or given to someone else.
// Every rank that cannot load it says where it looked and why, and ends the job's start with
// exit 2: the MPI installation is at fault, not the session.
const mcpilot_mpi_transport* load_mpi_plugin() {
  std::vector<std::string> paths;
  if (const char* p = std::getenv("MCPILOT_MPI_PLUGIN"); p && *p) paths.emplace_back(p);
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec && exe.has_parent_path())
    paths.push_back((exe.parent_path().parent_path() / MCPILOT_MPI_PLUGIN_RELATIVE).string());
  paths.emplace_back(MCPILOT_MPI_PLUGIN_INSTALL);
  paths.emplace_back(MCPILOT_MPI_PLUGIN_BUILD);
  std::string why;
  for (const auto& path : paths) {
    // Global, so that the libraries Open MPI itself opens find its symbols.
    void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (!handle) {
      why += std::string("\n  ") + dlerror();  // names the path
      continue;
    }
    const auto entry =
        reinterpret_cast<mcpilot_mpi_transport_fn>(dlsym(handle, MCPILOT_MPI_TRANSPORT_SYMBOL));
    const mcpilot_mpi_transport* t = entry ? entry() : nullptr;
    if (t && t->version == MCPILOT_MPI_TRANSPORT_VERSION) {
      plugin_path = path;
      return t;
    }
    why += "\n  " + path + ": not an mcpilot MPI plug-in of version " +
           std::to_string(MCPILOT_MPI_TRANSPORT_VERSION);
    dlclose(handle);
  }
  std::cerr << "mcpilot: launched by mpirun or srun, but the MPI plug-in could not be loaded:"
            << why
            << "\nSet MCPILOT_MPI_PLUGIN to the path of libmcpilot-mpi.so, or run without mpirun "
               "or srun to run on one process."
            << std::endl;
  std::exit(exit_input);
}

// Errors return (MPI_ERRORS_RETURN) so that a lost rank is said in words before the job ends.
[[noreturn]] void lost(int err) {
  char text[512];
  mpi->error_string(err, text, sizeof text);
  std::cerr << "mcpilot: MPI rank " << my_rank << ": lost contact with the other ranks (" << text
            << "); the session cannot go on without them. " << lost_hint << std::endl;
  mpi->abort(exit_internal);
  std::abort();
}
void check(int err) {
  if (err != 0) lost(err);
}

// Once a command is broadcast every rank must take part in its gathers; a rank that fails in
// between for another reason than a failing task (memory, a bug) would leave the others waiting
// for ever, so it ends the job instead.
template <class F>
auto collectively(F&& f) {
  try {
    return f();
  } catch (const task_failure&) {
    throw;  // thrown by rank 0 after the gathers: the session ends cleanly
  } catch (const std::exception& e) {
    std::cerr << "mcpilot: MPI rank " << my_rank << ": internal error: " << e.what() << std::endl;
    mpi->abort(exit_internal);
    std::abort();
  }
}

enum : std::uint64_t { op_stop, op_replications, op_streams, op_states };
struct command {
  std::uint64_t op = op_stop, a = 0, b = 0, c = 0;
};
void broadcast(command& c) {
  check(mpi->broadcast(&c, sizeof c));
}

// Rank r's block [lo, hi) of n indices: contiguous, sizes differing by at most one.
std::pair<std::uint64_t, std::uint64_t> block(std::uint64_t n, int r) {
  const std::uint64_t p = static_cast<std::uint64_t>(ranks), k = static_cast<std::uint64_t>(r);
  const std::uint64_t base = n / p, rem = n % p;
  const std::uint64_t lo = k * base + std::min(k, rem);
  return {lo, lo + base + (k < rem ? 1 : 0)};
}

// What a rank reports for its block; the payload follows by Gatherv.
struct status {
  std::uint64_t ran = 0;
  std::uint64_t failed = 0;
  std::uint64_t index = 0;
  std::uint64_t payload = 0;  // elements it sends
  char what[224] = {};
};
void set_failure(status& s, const task_failure& f) {
  s.failed = 1;
  s.index = f.index();
  std::strncpy(s.what, f.what(), sizeof s.what - 1);
}
std::vector<status> gather_status(const status& mine) {
  std::vector<status> all(my_rank == 0 ? ranks : 0);
  check(mpi->gather(&mine, sizeof(status), all.data()));
  return all;
}
// Counts and offsets of the ranks' payloads, in rank order.
std::vector<int> offsets_of(const std::vector<int>& counts, std::size_t& total) {
  std::vector<int> at(counts.size());
  std::uint64_t sum = 0;
  for (std::size_t r = 0; r < counts.size(); ++r) {
    at[r] = static_cast<int>(sum);
    sum += static_cast<std::uint64_t>(counts[r]);
  }
  if (sum > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("a round's readings exceed what one MPI_Gatherv can carry");
  total = sum;
  return at;
}
int int_count(std::uint64_t n) {
  if (n > static_cast<std::uint64_t>(std::numeric_limits<int>::max()))
    throw std::runtime_error("a rank's block exceeds what one MPI message can carry");
  return static_cast<int>(n);
}

void pack_fresh(const std::vector<stream_slot>& streams, std::uint64_t lo, std::uint64_t hi,
                std::vector<double>& out) {
  out.clear();
  for (std::uint64_t j = lo; j < hi; ++j)
    for (const auto& q : streams[j].fresh) {
      out.push_back(static_cast<double>(q.size()));
      out.insert(out.end(), q.begin(), q.end());
    }
}

void pack_states(const std::vector<stream_slot>& streams, std::uint64_t lo, std::uint64_t hi,
                 std::vector<char>& out) {
  out.clear();
  auto put = [&](std::uint64_t v) {
    const char* p = reinterpret_cast<const char*>(&v);
    out.insert(out.end(), p, p + sizeof v);
  };
  for (std::uint64_t j = lo; j < hi; ++j) {
    const std::string state = streams[j].state->save().value_or(std::string());
    put(streams[j].rng.drawn());
    put(state.size());
    out.insert(out.end(), state.begin(), state.end());
  }
}

int serve(const model& m, const model_spec& spec, const session_settings& settings,
          const stop_flag* interrupted);

class cluster_executor final : public round_executor {
 public:
  explicit cluster_executor(unsigned threads) : runner_(make_tbb_runner(threads)) {}
  ~cluster_executor() override { cluster_release_workers(exit_internal); }

  std::uint64_t replications(std::uint64_t begin, std::uint64_t count, std::size_t width,
                             const std::function<void(std::uint64_t)>& task, std::span<double> rows,
                             const std::atomic<bool>& cut) override {
    command c{op_replications, begin, count, width};
    broadcast(c);
    return collectively([&]() -> std::uint64_t {
      const auto [lo, hi] = block(count, 0);
      status mine;
      try {
        mine.ran = runner_->run(begin + lo, begin + hi, task, &cut);
      } catch (const task_failure& f) {
        set_failure(mine, f);
      }
      const std::vector<status> all = gather_status(mine);
      std::vector<int> counts(ranks);
      for (int r = 0; r < ranks; ++r) {
        const auto [l, h] = block(count, r);
        counts[r] = int_count((h - l) * width);
      }
      std::size_t total = 0;
      const std::vector<int> at = offsets_of(counts, total);
      check(mpi->gather_blocks(nullptr, 0, mcpilot_mpi_doubles, rows.data(), counts.data(),
                               at.data()));
      // The blocks in index order: the first failure or short block ends the prefix.
      for (int r = 0; r < ranks; ++r) {
        const auto [l, h] = block(count, r);
        if (all[r].failed) throw task_failure(all[r].index, all[r].what);
        if (all[r].ran < h - l) return l + all[r].ran;
      }
      return count;
    });
  }

  void advance_streams(
      std::size_t streams, std::uint64_t count, const std::function<void(std::uint64_t)>& task,
      const std::function<std::vector<std::vector<double>>&(std::size_t)>& fresh) override {
    command c{op_streams, streams, count, 0};
    broadcast(c);
    collectively([&] {
      const auto [lo, hi] = block(streams, 0);
      status mine;
      try {
        runner_->run(lo, hi, task);
      } catch (const task_failure& f) {
        set_failure(mine, f);
      }
      const std::vector<status> all = gather_status(mine);
      std::vector<int> counts(ranks);
      for (int r = 0; r < ranks; ++r) counts[r] = int_count(all[r].payload);
      std::size_t total = 0;
      const std::vector<int> at = offsets_of(counts, total);
      std::vector<double> packed(total);
      check(mpi->gather_blocks(nullptr, 0, mcpilot_mpi_doubles, packed.data(), counts.data(),
                               at.data()));
      for (int r = 1; r < ranks; ++r) {
        std::size_t pos = static_cast<std::size_t>(at[r]);
        const auto [l, h] = block(streams, r);
        for (std::uint64_t j = l; j < h; ++j)
          for (auto& q : fresh(j)) {
            const auto n = static_cast<std::size_t>(packed[pos++]);
            q.assign(packed.begin() + static_cast<std::ptrdiff_t>(pos),
                     packed.begin() + static_cast<std::ptrdiff_t>(pos + n));
            pos += n;
          }
      }
      for (int r = 0; r < ranks; ++r)
        if (all[r].failed) throw task_failure(all[r].index, all[r].what);
    });
  }

  void stream_states(std::vector<std::uint64_t>& drawn, std::vector<std::string>& states) override {
    command c{op_states, drawn.size(), 0, 0};
    broadcast(c);
    collectively([&] {
      const int mine = 0;
      std::vector<int> counts(ranks);
      check(mpi->gather(&mine, sizeof mine, counts.data()));
      std::size_t total = 0;
      const std::vector<int> at = offsets_of(counts, total);
      std::vector<char> bytes(total);
      check(mpi->gather_blocks(nullptr, 0, mcpilot_mpi_bytes, bytes.data(), counts.data(),
                               at.data()));
      for (int r = 1; r < ranks; ++r) {
        const char* p = bytes.data() + at[r];
        auto get = [&p] {
          std::uint64_t v;
          std::memcpy(&v, p, sizeof v);
          p += sizeof v;
          return v;
        };
        const auto [l, h] = block(drawn.size(), r);
        for (std::uint64_t j = l; j < h; ++j) {
          drawn[j] = get();
          const std::uint64_t n = get();
          states[j].assign(p, n);
          p += n;
        }
      }
    });
  }

  std::uint64_t chunk(std::uint64_t local) const override {
    return local * static_cast<std::uint64_t>(ranks);
  }

  unsigned concurrency() const override { return runner_->concurrency(); }

 private:
  std::unique_ptr<runner> runner_;
};

}  // namespace

cluster_scope::cluster_scope(int& argc, char**& argv) {
  if (!launched_by_mpi()) return;
  mpi = load_mpi_plugin();
  constexpr int host_capacity = 256;
  char host[host_capacity] = {};
  if (const int err = mpi->init(&argc, &argv, &my_rank, &ranks, host, host_capacity); err) {
    std::cerr << "mcpilot: MPI_Init failed; run without mpirun or srun to run on one process\n";
    std::exit(exit_internal);
  }
  active = true;
  char version[512] = {};
  mpi->library_version(version, sizeof version);
  library_version = version;
  // Open MPI's version string runs over several lines; the first names the release.
  library_version = library_version.substr(0, library_version.find('\n'));
  std::vector<char> all(static_cast<std::size_t>(ranks) * host_capacity);
  check(mpi->all_gather(host, host_capacity, all.data()));
  for (int r = 0; r < ranks; ++r) hosts.emplace_back(all.data() + r * host_capacity);
}

cluster_scope::~cluster_scope() {
  if (active) mpi->finalize();
  active = false;
}

bool cluster_active() {
  return active;
}
int cluster_rank() {
  return my_rank;
}
int cluster_size() {
  return ranks;
}
std::vector<std::string> cluster_hosts() {
  return hosts;
}
std::string cluster_library() {
  return active ? library_version : std::string();
}
std::string cluster_plugin() {
  return active ? plugin_path : std::string();
}

void cluster_expect_setup() {
  setup_pending = active;
}

int cluster_agree_setup(bool ok) {
  const bool pending = setup_pending;
  setup_pending = false;
  if (!active || !pending) return ok ? -1 : my_rank;
  const int mine = ok ? 1 : 0;
  std::vector<int> all(static_cast<std::size_t>(ranks));
  check(mpi->all_gather(&mine, sizeof mine, all.data()));
  for (int r = 0; r < ranks; ++r)
    if (!all[r]) return r;
  return -1;
}

bool cluster_reports_error() {
  if (!active) return true;
  if (setup_pending) return cluster_agree_setup(false) == my_rank;
  return my_rank == 0;
}

std::shared_ptr<round_executor> make_cluster_executor(unsigned threads,
                                                      const std::string& lost_rank_hint) {
  lost_hint = lost_rank_hint;
  workers_waiting = active && ranks > 1;
  return std::make_shared<cluster_executor>(threads);
}

void cluster_release_workers(int exit_code) {
  if (!workers_waiting) return;
  workers_waiting = false;
  command c{op_stop, static_cast<std::uint64_t>(exit_code), 0, 0};
  broadcast(c);
}

int run_cluster_worker(const model& m, const model_spec& spec, const session_settings& settings,
                       const stop_flag* interrupted) {
  return collectively([&] { return serve(m, spec, settings, interrupted); });
}

namespace {

int serve(const model& m, const model_spec& spec, const session_settings& settings,
          const stop_flag* interrupted) {
  const auto runner = make_tbb_runner(settings.threads);
  // The same limits as rank 0's session, so that a block too stops early within a round.
  limit_watch watch(limit_watch::deadline(limit_watch::clock_type::now(), settings.max_seconds),
                    interrupted);
  const std::size_t width = spec.quantities().size();
  std::vector<stream_slot> streams;
  std::vector<double> rows, packed;
  std::vector<char> bytes;
  // This rank's streams live here for the whole session, resumed where the checkpoint left them;
  // rank 0 holds their readings. Opened at the first stream command (a checkpoint's state
  // request can come before the first round).
  auto open_streams = [&](std::uint64_t n) {
    if (!streams.empty()) return;
    const auto [lo, hi] = block(n, my_rank);
    for (std::uint64_t j = 0; j < n; ++j)
      streams.push_back({nullptr, philox_stream(settings.seed, stream_key(j)), {}});
    for (std::uint64_t j = lo; j < hi; ++j) {
      streams[j].state = m.open_stream(j);
      if (settings.resume) {
        streams[j].rng.seek(settings.resume->stream_drawn.at(j));
        streams[j].state->restore(settings.resume->stream_states.at(j));
      }
    }
  };
  while (true) {
    command c;
    broadcast(c);
    status mine;
    switch (c.op) {
      case op_replications: {
        const auto [lo, hi] = block(c.b, my_rank);
        const std::uint64_t begin = c.a + lo;
        rows.assign((hi - lo) * c.c, std::numeric_limits<double>::quiet_NaN());
        try {
          mine.ran = runner->run(
              begin, c.a + hi, replication_task(m, spec, settings.seed, begin, rows, &watch.cut()),
              &watch.cut());
        } catch (const task_failure& f) {
          set_failure(mine, f);
        }
        gather_status(mine);
        check(mpi->gather_blocks(rows.data(), int_count(rows.size()), mcpilot_mpi_doubles, nullptr,
                                 nullptr, nullptr));
        break;
      }
      case op_streams: {
        const auto [lo, hi] = block(c.a, my_rank);
        open_streams(c.a);
        for (std::uint64_t j = lo; j < hi; ++j) streams[j].fresh.assign(width, {});
        try {
          runner->run(lo, hi, stream_task(spec, streams, c.b, watch.cut()));
        } catch (const task_failure& f) {
          set_failure(mine, f);
        }
        pack_fresh(streams, lo, hi, packed);
        mine.payload = packed.size();
        gather_status(mine);
        check(mpi->gather_blocks(packed.data(), int_count(packed.size()), mcpilot_mpi_doubles,
                                 nullptr, nullptr, nullptr));
        break;
      }
      case op_states: {
        open_streams(c.a);
        const auto [lo, hi] = block(c.a, my_rank);
        pack_states(streams, lo, hi, bytes);
        const int n = int_count(bytes.size());
        check(mpi->gather(&n, sizeof n, nullptr));
        check(mpi->gather_blocks(bytes.data(), n, mcpilot_mpi_bytes, nullptr, nullptr, nullptr));
        break;
      }
      default:
        return static_cast<int>(c.a);
    }
  }
}

}  // namespace

}  // namespace mcpilot
