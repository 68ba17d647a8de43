// A user's layout from a text file: one group per line.
#include <algorithm>
#include <fstream>
#include <sstream>

#include "mcpilot/io/input_file.hpp"
#include "mcpilot/parameters.hpp"
#include "placement/constructions.hpp"

namespace mcpilot::placement {

layout read_blocks_file(const std::string& path, int devices) {
  // A regular file of at most 64 MiB (10^6 groups of a few devices): a folder or /dev/zero is
  // said at once, not read forever or taken for an internal error.
  std::istringstream in;
  try {
    in.str(read_input_file(path, "cannot read the blocks file \"" + path + "\"", 64u << 20));
  } catch (const input_error& e) {
    throw parameter_error("blocks_file", e.what());
  }
  const auto fail = [&](int line, const std::string& why) {
    throw parameter_error("blocks_file", path + ":" + std::to_string(line) + ": " + why);
  };
  layout l;
  l.name = "blocks file " + path;
  std::string text;
  int line = 0, largest = -1;
  while (std::getline(in, text)) {
    ++line;
    if (const auto hash = text.find('#'); hash != std::string::npos) text.erase(hash);
    std::replace(text.begin(), text.end(), ',', ' ');
    std::istringstream words(text);
    std::vector<int> g;
    std::string word;
    while (words >> word) {
      std::size_t used = 0;
      long long d = -1;
      try {
        d = std::stoll(word, &used);
      } catch (const std::exception&) {
        used = 0;
      }
      if (used != word.size() || d < 0)
        fail(line, "\"" + word + "\" is not a device number (0, 1, 2, ...)");
      if (devices > 0 && d >= devices)
        fail(line, "device " + word + " is not below devices = " + std::to_string(devices));
      if (d > 1'000'000) fail(line, "device " + word + " is implausibly large");
      g.push_back(static_cast<int>(d));
    }
    if (g.empty()) continue;
    std::sort(g.begin(), g.end());
    if (std::adjacent_find(g.begin(), g.end()) != g.end())
      fail(line, "a group names the same device twice");
    if (l.groups.empty()) l.group_size = static_cast<int>(g.size());
    if (static_cast<int>(g.size()) != l.group_size)
      fail(line, "a group of " + std::to_string(g.size()) + " devices; the first group had " +
                     std::to_string(l.group_size));
    largest = std::max(largest, g.back());
    l.groups.push_back(std::move(g));
  }
  if (l.groups.empty()) throw parameter_error("blocks_file", path + ": no groups in the file");
  l.devices = devices > 0 ? devices : largest + 1;
  return l;
}

}  // namespace mcpilot::placement
