#include "mcpilot/io/checkpoint.hpp"

#include <boost/crc.hpp>

#include <cstring>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <sstream>

#include "mcpilot/error.hpp"
#include "mcpilot/io/atomic_file.hpp"
#include "mcpilot/io/input_file.hpp"
#include "mcpilot/memory.hpp"

namespace mcpilot {

namespace {

constexpr char magic[8] = {'M', 'C', 'P', 'C', 'K', 'P', 'T', 1};

class byte_writer {
 public:
  void u64(std::uint64_t v) { raw(&v, sizeof v); }
  void bytes(const std::string& s) {
    u64(s.size());
    raw(s.data(), s.size());
  }
  void doubles(const std::vector<double>& v) {
    u64(v.size());
    raw(v.data(), v.size() * sizeof(double));
  }
  void raw(const void* p, std::size_t n) {
    if (n == 0) return;
    const auto* c = static_cast<const char*>(p);
    out_.insert(out_.end(), c, c + n);
  }
  std::string& text() { return out_; }

 private:
  std::string out_;
};

class byte_reader {
 public:
  byte_reader(const std::string& data, std::string where) : data_(data), where_(std::move(where)) {}
  std::uint64_t u64() {
    std::uint64_t v;
    raw(&v, sizeof v);
    return v;
  }
  std::string bytes() {
    const std::uint64_t n = count(1);
    std::string s(data_.substr(at_, n));
    at_ += n;
    return s;
  }
  std::vector<double> doubles() {
    const std::uint64_t n = count(sizeof(double));
    std::vector<double> v(n);
    raw(v.data(), n * sizeof(double));
    return v;
  }
  bool done() const { return at_ == data_.size(); }

 private:
  // A length field, checked against what is left before anything is allocated for it.
  std::uint64_t count(std::size_t unit) {
    const std::uint64_t n = u64();
    if (n > (data_.size() - at_) / unit) throw input_error(where_ + "is truncated or corrupted");
    return n;
  }
  void raw(void* p, std::size_t n) {
    if (data_.size() - at_ < n) throw input_error(where_ + "is truncated or corrupted");
    if (n == 0) return;  // an empty vector's data() may be null, which memcpy must not get
    std::memcpy(p, data_.data() + at_, n);
    at_ += n;
  }
  const std::string& data_;
  std::string where_;
  std::size_t at_ = 0;
};

std::uint32_t crc32(const char* p, std::size_t n) {
  boost::crc_32_type crc;
  crc.process_bytes(p, n);
  return crc.checksum();
}

}  // namespace

void write_checkpoint(const std::string& path, const checkpoint& c, const char* option) {
  const session_snapshot& s = c.progress;
  const bool stream_style = !s.stream_readings.empty();
  nlohmann::ordered_json header = {
      {"format", 1},
      {"config_source", c.config_source},
      {"config_text", c.config_text},
      {"sets", c.sets},
      {"seed", c.seed ? nlohmann::ordered_json(*c.seed) : nlohmann::ordered_json(nullptr)},
      {"model", c.model},
      {"quantities", c.quantities},
      {"style", stream_style ? "stream" : "replication"},
      {"streams", s.stream_readings.size()},
      {"rounds", s.rounds},
  };
  byte_writer w;
  w.raw(magic, sizeof magic);
  w.bytes(header.dump());
  if (!stream_style) {
    w.u64(s.readings.size());
    for (const auto& q : s.readings) w.doubles(q);
  } else {
    for (std::size_t j = 0; j < s.stream_readings.size(); ++j) {
      w.u64(s.stream_drawn.at(j));
      w.bytes(s.stream_states.at(j));
      w.u64(s.stream_readings[j].size());
      for (const auto& q : s.stream_readings[j]) w.doubles(q);
    }
  }
  const std::uint32_t crc = crc32(w.text().data(), w.text().size());
  w.raw(&crc, sizeof crc);
  write_file_atomically(path, option, [&](std::ostream& out) {
    out.write(w.text().data(), static_cast<std::streamsize>(w.text().size()));
  });
}

checkpoint read_checkpoint(const std::string& path) {
  const std::string where = "--resume " + path + ": ";
  // Read whole, then decoded beside itself: at most a third of the memory this process may use
  // (1 TiB when that is unknown), and only a regular file (/dev/zero never ends).
  const double room = memory_room_now().usable();
  const auto limit = static_cast<std::uint64_t>(room > 0 ? room / 3 : 0x1p40);
  std::string data =
      read_input_file(path, "--resume " + path + ": cannot open the checkpoint", limit);
  if (data.size() < sizeof magic + 4 || std::memcmp(data.data(), magic, sizeof magic) != 0)
    throw input_error(where + "is not an mcpilot checkpoint (format 1)");
  std::uint32_t stored;
  std::memcpy(&stored, data.data() + data.size() - 4, 4);
  data.resize(data.size() - 4);
  if (crc32(data.data(), data.size()) != stored)
    throw input_error(where + "the checksum does not match: the file is corrupted or truncated");

  byte_reader r(data, where);
  r.u64();  // the magic, checked above
  checkpoint c;
  nlohmann::json h;
  try {
    h = nlohmann::json::parse(r.bytes());
    c.config_source = h.at("config_source").get<std::string>();
    c.config_text = h.at("config_text").get<std::string>();
    c.sets = h.at("sets").get<std::vector<std::string>>();
    if (!h.at("seed").is_null()) c.seed = h.at("seed").get<std::uint64_t>();
    c.model = h.at("model").get<std::string>();
    c.quantities = h.at("quantities").get<std::vector<std::string>>();
    c.progress.rounds = h.at("rounds").get<std::size_t>();
  } catch (const nlohmann::json::exception& e) {
    throw input_error(where + "its header is not readable: " + e.what());
  }
  session_snapshot& s = c.progress;
  if (h.at("style") == "replication") {
    const std::uint64_t width = r.u64();
    if (width != c.quantities.size()) throw input_error(where + "is inconsistent");
    for (std::uint64_t q = 0; q < width; ++q) s.readings.push_back(r.doubles());
  } else {
    const std::size_t streams = h.at("streams").get<std::size_t>();
    for (std::size_t j = 0; j < streams; ++j) {
      s.stream_drawn.push_back(r.u64());
      s.stream_states.push_back(r.bytes());
      const std::uint64_t width = r.u64();
      if (width != c.quantities.size()) throw input_error(where + "is inconsistent");
      s.stream_readings.emplace_back();
      for (std::uint64_t q = 0; q < width; ++q) s.stream_readings.back().push_back(r.doubles());
    }
  }
  if (!r.done()) throw input_error(where + "has trailing bytes: corrupted");
  return c;
}

}  // namespace mcpilot
