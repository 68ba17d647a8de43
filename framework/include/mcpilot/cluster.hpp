#pragma once
// The processes one run spans: this process alone, or the ranks of an MPI job started by mpirun
// or srun (docs/cluster.md). Rank 0 runs the engine and writes every output; the other ranks run
// their block of each round's indices and send the readings back in index order, so the result
// is identical to one process's. Without an MPI build, or when not launched by mpirun or srun,
// the run is a single process: rank 0 of 1.

#include <atomic>
#include <memory>
#include <string>
#include <vector>

#include "mcpilot/round_executor.hpp"
#include "mcpilot/session.hpp"

namespace mcpilot {

// Joins the MPI job for the process's lifetime when it was launched by mpirun or srun (and only
// then: a plain run never initialises MPI).
class cluster_scope {
 public:
  cluster_scope(int& argc, char**& argv);
  ~cluster_scope();
  cluster_scope(const cluster_scope&) = delete;
  cluster_scope& operator=(const cluster_scope&) = delete;
};

bool cluster_active();                     // launched as part of an MPI job
int cluster_rank();                        // 0 outside one
int cluster_size();                        // 1 outside one
std::vector<std::string> cluster_hosts();  // each rank's host name, by rank; empty outside one
std::string cluster_library();  // the MPI library's version, first line; empty outside a job
std::string cluster_plugin();   // the path of the MPI plug-in loaded; empty outside a job

// Setup agreement, so that an input error ends every rank with exit 2 and is said once: the run
// command announces it (cluster_expect_setup), then every rank calls cluster_agree_setup once,
// with whether its own setup succeeded; the answer is the lowest rank that failed, or -1.
void cluster_expect_setup();
int cluster_agree_setup(bool ok);
// For an input error about to be printed: joins a pending agreement and says whether this rank
// is the one to print it (rank 0, or the lowest rank that failed).
bool cluster_reports_error();

// Rank 0 of a job of two or more: the executor that splits each round across the ranks.
// `lost_rank_hint` ends the message printed when a rank is lost (how to resume).
std::shared_ptr<round_executor> make_cluster_executor(unsigned threads,
                                                      const std::string& lost_rank_hint);
// Rank 0: tells the other ranks that the session is over and the exit code to end with. Does
// nothing outside a job, or when already said.
void cluster_release_workers(int exit_code);

// Every other rank: runs the blocks rank 0 hands out until it releases them; returns the exit
// code rank 0 sent.
int run_cluster_worker(const model& m, const model_spec& spec, const session_settings& settings,
                       const stop_flag* interrupted);

}  // namespace mcpilot
