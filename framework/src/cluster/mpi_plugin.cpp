// The plug-in libmcpilot-mpi.so: the MPI calls of mpi_transport.hpp, and nothing of the
// framework, so that it links MPI alone. Built as a module beside the framework when MCPILOT_MPI
// is on, and loaded by mpi_cluster.cpp under mpirun or srun only.

#include <mpi.h>

#include "mpi_transport.hpp"

namespace {

// `len` characters of an MPI string into the caller's buffer of `capacity`, cut to fit, ended by a
// zero.
void copy_out(const char* from, int len, char* to, int capacity) {
  if (capacity <= 0) return;
  int i = 0;
  for (; i + 1 < capacity && i < len; ++i) to[i] = from[i];
  to[i] = '\0';
}

int init(int* argc, char*** argv, int* rank, int* size, char* host, int host_capacity) {
  int provided = 0;
  if (const int err = MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided); err) return err;
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_rank(MPI_COMM_WORLD, rank);
  MPI_Comm_size(MPI_COMM_WORLD, size);
  char name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(name, &len);
  copy_out(name, len, host, host_capacity);
  return MPI_SUCCESS;
}

void finalize() {
  MPI_Finalize();
}

void abort_job(int exit_code) {
  MPI_Abort(MPI_COMM_WORLD, exit_code);
}

void error_string(int error, char* text, int capacity) {
  char buffer[MPI_MAX_ERROR_STRING] = {};
  int len = 0;
  if (MPI_Error_string(error, buffer, &len) != MPI_SUCCESS) len = 0;
  copy_out(buffer, len, text, capacity);
}

void library_version(char* text, int capacity) {
  char buffer[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  if (MPI_Get_library_version(buffer, &len) != MPI_SUCCESS) len = 0;
  copy_out(buffer, len, text, capacity);
}

int broadcast(void* data, int bytes) {
  return MPI_Bcast(data, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
}

int gather(const void* mine, int bytes, void* all) {
  return MPI_Gather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, 0, MPI_COMM_WORLD);
}

int all_gather(const void* mine, int bytes, void* all) {
  return MPI_Allgather(mine, bytes, MPI_BYTE, all, bytes, MPI_BYTE, MPI_COMM_WORLD);
}

int gather_blocks(const void* mine, int count, mcpilot_mpi_type type, void* all, const int* counts,
                  const int* offsets) {
  const MPI_Datatype t = type == mcpilot_mpi_doubles ? MPI_DOUBLE : MPI_BYTE;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) return MPI_Gatherv(MPI_IN_PLACE, 0, t, all, counts, offsets, t, 0, MPI_COMM_WORLD);
  return MPI_Gatherv(mine, count, t, nullptr, nullptr, nullptr, t, 0, MPI_COMM_WORLD);
}

constexpr mcpilot_mpi_transport table{MCPILOT_MPI_TRANSPORT_VERSION,
                                      init,
                                      finalize,
                                      abort_job,
                                      error_string,
                                      library_version,
                                      broadcast,
                                      gather,
                                      all_gather,
                                      gather_blocks};

}  // namespace

extern "C" __attribute__((visibility("default"))) const mcpilot_mpi_transport*
mcpilot_mpi_plugin() {
  return &table;
}
