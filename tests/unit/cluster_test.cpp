// A process that mpirun or srun did not launch is one process, and maps none of the MPI
// libraries: MPI runs load them through a plug-in (src/cluster/mpi_transport.hpp) only when
// launched so. MPI jobs themselves are tested under mpirun (tests/mpi/identical.sh).

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>

#include "mcpilot/cluster.hpp"

namespace mcpilot {
namespace MCPILOT_TEST_FILE {

TEST(Cluster, APlainProcessIsOneRankAndMapsNoMpiLibrary) {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_RANK", "PMI_SIZE"})
    ASSERT_EQ(std::getenv(v), nullptr) << v << " is set: this test must run outside mpirun";
  int argc = 1;
  char name[] = "mcpilot_tests";
  char* args[] = {name, nullptr};
  char** argv = args;
  const cluster_scope scope(argc, argv);
  EXPECT_FALSE(cluster_active());
  EXPECT_EQ(cluster_rank(), 0);
  EXPECT_EQ(cluster_size(), 1);
  EXPECT_TRUE(cluster_hosts().empty());
  EXPECT_EQ(cluster_library(), "");
  EXPECT_EQ(cluster_plugin(), "");
  EXPECT_EQ(cluster_agree_setup(false), 0);
  EXPECT_EQ(cluster_agree_setup(true), -1);

  std::ifstream maps("/proc/self/maps");
  ASSERT_TRUE(maps) << "no /proc/self/maps";
  std::string line;
  while (std::getline(maps, line)) {
    EXPECT_EQ(line.find("libmpi"), std::string::npos) << line;
    EXPECT_EQ(line.find("libopen-pal"), std::string::npos) << line;
  }
}

}  // namespace MCPILOT_TEST_FILE
}  // namespace mcpilot
