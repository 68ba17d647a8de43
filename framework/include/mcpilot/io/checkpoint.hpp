#pragma once
// Checkpoints (run --checkpoint FILE, run --resume FILE): the config a session was started with
// (its full text, so a resume needs no other file), the overrides, and the session's progress
// (session_snapshot: every reading so far, each stream's random position and state).
//
// Format (version 1), native byte order, for resuming on the same kind of machine:
//   "MCPCKPT" 0x01 | u64 length + JSON header | binary payload | u32 CRC-32 of all before it.
// The header names the config, overrides, model, quantities, style and counts; the payload holds
// the readings as raw doubles, so a resume is bit-exact. A file that is short, altered or of
// another format is refused with input_error, never half-read. Written atomically
// (io/atomic_file.hpp), so a kill during the write leaves the previous checkpoint.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/session.hpp"

namespace mcpilot {

struct checkpoint {
  std::string config_source;            // the config file as given on the command line
  std::string config_text;              // its text when the session started
  std::vector<std::string> sets;        // --set overrides, in order
  std::optional<std::uint64_t> seed;    // --seed, when given
  std::string model;                    // for messages and a consistency check
  std::vector<std::string> quantities;  // likewise
  session_snapshot progress;
};

// Throws input_error naming `option` and the path when the file cannot be written.
void write_checkpoint(const std::string& path, const checkpoint& c,
                      const char* option = "--checkpoint");

// Throws input_error ("--resume PATH: why") for a missing, short, corrupted or foreign file.
checkpoint read_checkpoint(const std::string& path);

}  // namespace mcpilot
