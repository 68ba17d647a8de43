// The command-line parser of every command, without running anything: the input is split at
// newlines into argv, and run_cli parses and checks the options in parse-only mode (no file is
// read, no session run). An exit code of 1 (an internal error) is a finding, like a crash: every
// bad argument must be a usage error (2).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <string>
#include <vector>

#include "commands.hpp"
#include "mcpilot/cli.hpp"
#include "mcpilot/registry.hpp"
#include "storage/storage_model.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const mcpilot::model_registry models = [] {
    mcpilot::model_registry m;
    m.add<mcpilot::storage::storage_model>("storage.group");
    // Help and error text would flood the fuzzer's log; it is not what is tested.
    std::cout.setstate(std::ios::failbit);
    std::cerr.setstate(std::ios::failbit);
    return m;
  }();
  std::vector<std::string> args{"mcpilot"};
  std::string current;
  for (std::size_t i = 0; i < size && args.size() < 64; ++i) {
    const char c = static_cast<char>(data[i]);
    if (c == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += c;
    }
  }
  if (!current.empty()) args.push_back(current);
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  mcpilot::cli::context ctx;
  ctx.models = &models;
  ctx.parse_only = true;
  const int rc = mcpilot::cli::run_cli(static_cast<int>(args.size()), argv.data(), ctx);
  if (rc == mcpilot::exit_internal) std::abort();
  return 0;
}
