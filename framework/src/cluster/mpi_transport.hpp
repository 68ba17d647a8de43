#pragma once
// The MPI calls an MPI job needs (cluster.hpp), as a table of C functions that the plug-in
// libmcpilot-mpi.so fills in (mpi_plugin.cpp, the only file that includes <mpi.h>). The framework
// loads it only when mpirun or srun launched the process: a plain run then never maps Open MPI's
// libraries, which cost every process about 1.1 MB of resident memory and a third of the start-up
// of a short command, and a machine without Open MPI runs everything but MPI jobs.
//
// Every collective is on MPI_COMM_WORLD with rank 0 as the root. Errors return (the job's handler
// is MPI_ERRORS_RETURN) as MPI's own codes, 0 for success, so that a lost rank is said in words.
// Rank 0 never sends its own part of a gather: its readings are already where they belong.

extern "C" {

// Bumped whenever the table changes; the framework refuses a plug-in of another version.
#define MCPILOT_MPI_TRANSPORT_VERSION 1
// The symbol the framework looks up in the plug-in.
#define MCPILOT_MPI_TRANSPORT_SYMBOL "mcpilot_mpi_plugin"

enum mcpilot_mpi_type { mcpilot_mpi_bytes = 0, mcpilot_mpi_doubles = 1 };

struct mcpilot_mpi_transport {
  int version;
  // MPI_Init_thread (funneled) and the error handler; rank, size and this host's name.
  int (*init)(int* argc, char*** argv, int* rank, int* size, char* host, int host_capacity);
  void (*finalize)(void);
  void (*abort)(int exit_code);
  void (*error_string)(int error, char* text, int capacity);
  // MPI_Get_library_version, cut to `capacity` with its terminating zero.
  void (*library_version)(char* text, int capacity);
  // Rank 0's `bytes` to every rank.
  int (*broadcast)(void* data, int bytes);
  // Every rank's `bytes` from `mine`, in rank order, into rank 0's `all` (null elsewhere).
  int (*gather)(const void* mine, int bytes, void* all);
  // The same into every rank's `all`.
  int (*all_gather)(const void* mine, int bytes, void* all);
  // Rank r's `count` elements into rank 0's `all` at offsets[r], counts[r] elements: the arrays
  // matter on rank 0 only, whose own block is left as it is.
  int (*gather_blocks)(const void* mine, int count, enum mcpilot_mpi_type type, void* all,
                       const int* counts, const int* offsets);
};

typedef const struct mcpilot_mpi_transport* (*mcpilot_mpi_transport_fn)(void);
}
