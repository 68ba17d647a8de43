// The `mcpilot` executable: the shared command line with every built-in model registered.
#include "mcpilot/cli.hpp"

int main(int argc, char** argv) { return mcpilot::cli_main(argc, argv); }
