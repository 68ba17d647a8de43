#include "mcpilot/measure/child.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <stdexcept>

#include "mcpilot/error.hpp"

extern char** environ;

namespace mcpilot {

namespace {

// Enough of stderr to show why a run failed, without holding a chatty program's whole log.
constexpr std::size_t stderr_tail_bytes = 4096;

struct fd_guard {
  int fd = -1;
  ~fd_guard() {
    if (fd >= 0) close(fd);
  }
  void reset() {
    if (fd >= 0) close(fd);
    fd = -1;
  }
};

double seconds(const timeval& t) {
  return static_cast<double>(t.tv_sec) + t.tv_usec * 1e-6;
}

// Reads the child's stdout (when captured) and stderr until both are closed, so that neither pipe
// fills and blocks it.
void drain(int out_fd, int err_fd, child_result& r) {
  pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
  char buf[65536];
  int open_count = (out_fd >= 0) + (err_fd >= 0);
  while (open_count > 0) {
    if (poll(fds, 2, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < 2; ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        fds[i].fd = -1;
        --open_count;
        continue;
      }
      if (i == 0) {
        r.output.append(buf, static_cast<std::size_t>(n));
      } else {
        r.stderr_tail.append(buf, static_cast<std::size_t>(n));
        if (r.stderr_tail.size() > 2 * stderr_tail_bytes)
          r.stderr_tail.erase(0, r.stderr_tail.size() - stderr_tail_bytes);
      }
    }
  }
  if (r.stderr_tail.size() > stderr_tail_bytes)
    r.stderr_tail.erase(0, r.stderr_tail.size() - stderr_tail_bytes);
}

// The files a run's output goes to, opened once per thread and kept for its later runs. A pipe
// per run cost a pipe2, a poll loop while the child ran and four closes, and /dev/null two
// opens and closes: some 25 us per run on a virtual machine, in the gaps between runs that a
// session's wall time pays for and its runs' do not. The child writes stdout and stderr into
// memory files (O_APPEND, so that a truncation rewinds them) that the parent reads once the
// child has exited: no poll, and a child that writes more than a pipe holds cannot block.
struct run_files {
  int null_in = -1, null_out = -1;
  int out = -1, err = -1;  // memory files; -1 where memfd_create is not available (pipes then)
  run_files() {
    null_in = open("/dev/null", O_RDONLY | O_CLOEXEC);
    null_out = open("/dev/null", O_WRONLY | O_CLOEXEC);
    out = memory_file("mcpilot-stdout");
    err = memory_file("mcpilot-stderr");
  }
  ~run_files() {
    for (int fd : {null_in, null_out, out, err})
      if (fd >= 0) close(fd);
  }
  run_files(const run_files&) = delete;
  run_files& operator=(const run_files&) = delete;
  static int memory_file(const char* name) {
    const int fd = memfd_create(name, MFD_CLOEXEC);
    if (fd >= 0 && fcntl(fd, F_SETFL, O_APPEND) != 0) {
      close(fd);
      return -1;
    }
    return fd;
  }
};

// The dup2 actions of a spawn, built once per thread and kept while its three descriptors stay
// the same. glibc checks each descriptor of each action against the limit on open files, one
// getrlimit system call apiece: building the three actions per run cost six of them, about 9 us
// on this virtual machine, outside the timed window and so in the gaps a session pays for.
class spawn_actions {
 public:
  spawn_actions() = default;
  ~spawn_actions() {
    if (ready_) posix_spawn_file_actions_destroy(&fa_);
  }
  spawn_actions(const spawn_actions&) = delete;
  spawn_actions& operator=(const spawn_actions&) = delete;
  const posix_spawn_file_actions_t* to(int in, int out, int err) {
    if (ready_ && in == in_ && out == out_ && err == err_) return &fa_;
    if (ready_) posix_spawn_file_actions_destroy(&fa_);
    ready_ = false;
    if (posix_spawn_file_actions_init(&fa_) != 0)
      throw std::runtime_error("posix_spawn_file_actions_init failed");
    if (posix_spawn_file_actions_adddup2(&fa_, in, STDIN_FILENO) != 0 ||
        posix_spawn_file_actions_adddup2(&fa_, out, STDOUT_FILENO) != 0 ||
        posix_spawn_file_actions_adddup2(&fa_, err, STDERR_FILENO) != 0) {
      posix_spawn_file_actions_destroy(&fa_);
      throw std::runtime_error("posix_spawn_file_actions_adddup2 failed");
    }
    ready_ = true;
    in_ = in;
    out_ = out;
    err_ = err;
    return &fa_;
  }

 private:
  posix_spawn_file_actions_t fa_{};
  bool ready_ = false;
  int in_ = -1, out_ = -1, err_ = -1;
};

spawn_actions& spawn_actions_of_this_thread() {
  thread_local spawn_actions a;
  return a;
}

run_files& files_of_this_thread() {
  thread_local run_files f;
  return f;
}

// What the child wrote into a memory file: all of it, or its last `keep` bytes; the file is
// emptied for the next run. One fstat when it is empty.
void take(int fd, std::string& into, std::size_t keep) {
  struct stat st {};
  if (fstat(fd, &st) != 0 || st.st_size <= 0) return;
  const auto size = static_cast<std::size_t>(st.st_size);
  const std::size_t n = std::min(size, keep);
  into.resize(n);
  std::size_t got = 0;
  while (got < n) {
    const ssize_t k = pread(fd, into.data() + got, n - got, static_cast<off_t>(size - n + got));
    if (k < 0 && errno == EINTR) continue;
    if (k <= 0) break;
    got += static_cast<std::size_t>(k);
  }
  into.resize(got);
  // A file left full would hand this run's output to the next one as well.
  if (ftruncate(fd, 0) != 0)
    throw std::runtime_error(std::string("emptying a run's output file: ") + std::strerror(errno));
}

void finish(pid_t pid, std::chrono::steady_clock::time_point t0, child_result& r) {
  int status = 0;
  rusage ru{};
  while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR) {
  }
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  r.user_seconds = seconds(ru.ru_utime);
  r.system_seconds = seconds(ru.ru_stime);
  r.max_rss_kib = static_cast<double>(ru.ru_maxrss);
  if (WIFEXITED(status)) {
    r.exit_code = WEXITSTATUS(status);
  } else if (WIFSIGNALED(status)) {
    r.signal = WTERMSIG(status);
    r.exit_code = 128 + r.signal;
  }
}

// The program's path as execvp would find it, looked up once per thread and name: searched at every
// spawn, a bare name like `true` cost one failed execve per PATH entry before it (ten on a
// developer's PATH), inside the timed window and so in every reading. The child still gets the
// name as typed for argv[0]. A program that appears or moves during a session is not followed;
// one that vanishes fails its spawn as before.
const std::string& executable_of(const std::string& name) {
  thread_local std::string last_name, last_path;
  if (name != last_name) {
    last_name = name;
    last_path = find_on_path(name).value_or(name);
  }
  return last_path;
}

}  // namespace

std::optional<std::string> find_on_path(const std::string& name) {
  if (name.empty() || name.find('/') != std::string::npos) return std::nullopt;
  const char* env = std::getenv("PATH");
  const std::string path = env ? env : "/bin:/usr/bin";  // glibc's execvp default
  std::size_t begin = 0;
  for (;;) {
    const std::size_t end = std::min(path.find(':', begin), path.size());
    const std::string dir = end > begin ? path.substr(begin, end - begin) : ".";
    const std::string candidate = dir + "/" + name;
    struct stat st;
    if (stat(candidate.c_str(), &st) == 0 && S_ISREG(st.st_mode) &&
        access(candidate.c_str(), X_OK) == 0)
      return candidate;
    if (end == path.size()) return std::nullopt;
    begin = end + 1;
  }
}

std::vector<std::string> split_command_line(const std::string& line, const std::string& what) {
  std::vector<std::string> words;
  std::string word;
  bool in_word = false;
  char quote = 0;
  for (std::size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quote == '\'') {
      if (c == '\'')
        quote = 0;
      else
        word += c;
    } else if (c == '\\' && i + 1 < line.size() && quote != '\'') {
      word += line[++i];
      in_word = true;
    } else if (quote == '"') {
      if (c == '"')
        quote = 0;
      else
        word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(std::move(word));
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (quote)
    throw input_error(what + ": unterminated " + std::string(1, quote) + " quote in '" + line +
                      "'");
  if (in_word) words.push_back(std::move(word));
  if (words.empty()) throw input_error(what + ": empty command");
  return words;
}

std::vector<std::string> command_argv(const std::string& line, const std::string& shell) {
  if (shell == "sh") return {"/bin/sh", "-c", line};
  return split_command_line(line, "command");
}

child_result run_child(const std::vector<std::string>& argv, const child_options& options) {
  child_result r;
  run_files& files = files_of_this_thread();
  fd_guard input;  // --input: opened per run, so that every run reads it from its start
  if (!options.input_file.empty()) {
    input.fd = open(options.input_file.c_str(), O_RDONLY | O_CLOEXEC);
    if (input.fd < 0)
      throw input_error("--input " + options.input_file + ": " + std::strerror(errno));
  }
  const int in_fd = input.fd >= 0 ? input.fd : files.null_in;
  if (in_fd < 0) throw std::runtime_error(std::string("/dev/null: ") + std::strerror(errno));
  // Memory files where the kernel has them; pipes, drained while the child runs, where not.
  const bool memory_out = options.capture_stdout && files.out >= 0;
  const bool memory_err = !options.show_output && files.err >= 0;
  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
  if (options.capture_stdout && !memory_out && pipe2(out_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  fd_guard out_read{out_pipe[0]}, out_write{out_pipe[1]};
  if (!options.show_output && !memory_err && pipe2(err_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  fd_guard err_read{err_pipe[0]}, err_write{err_pipe[1]};
  if (!options.capture_stdout && !options.show_output && files.null_out < 0)
    throw std::runtime_error(std::string("/dev/null: ") + std::strerror(errno));
  const int child_out = memory_out               ? files.out
                        : options.capture_stdout ? out_write.fd
                        : options.show_output    ? STDOUT_FILENO
                                                 : files.null_out;
  const int child_err = options.show_output ? STDERR_FILENO : memory_err ? files.err : err_write.fd;

  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);

  // A path (it holds a '/'), so neither call below searches PATH again.
  const std::string& program = executable_of(argv[0]);
  pid_t pid = -1;
  std::unique_ptr<counter_source> source;
  auto t0 = std::chrono::steady_clock::now();
  if (options.counters.empty()) {
    const posix_spawn_file_actions_t* fa =
        spawn_actions_of_this_thread().to(in_fd, child_out, child_err);
    t0 = std::chrono::steady_clock::now();
    const int rc = posix_spawnp(&pid, program.c_str(), fa, nullptr, args.data(), environ);
    if (rc != 0) {
      r.start_error = std::strerror(rc);
      return r;
    }
  } else {
    // The child waits on `go` until its counters are attached; `failed` carries exec's errno back
    // (closed by exec on success thanks to O_CLOEXEC).
    int go[2], failed[2];
    if (pipe2(go, O_CLOEXEC) != 0 || pipe2(failed, O_CLOEXEC) != 0)
      throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    t0 = std::chrono::steady_clock::now();
    pid = fork();
    if (pid == 0) {
      char c;
      close(go[1]);
      while (read(go[0], &c, 1) < 0 && errno == EINTR) {
      }
      dup2(in_fd, STDIN_FILENO);
      dup2(child_out, STDOUT_FILENO);
      dup2(child_err, STDERR_FILENO);
      execvp(program.c_str(), args.data());
      const int e = errno;
      ssize_t ignored = write(failed[1], &e, sizeof e);
      (void)ignored;
      _exit(127);
    }
    close(go[0]);
    close(failed[1]);
    if (pid > 0) {
      source = open_perf_counters(options.counters, {pid, true, true});
      r.counters = source->status();
      t0 = std::chrono::steady_clock::now();
    }
    close(go[1]);
    int e = 0;
    ssize_t n;
    while ((n = read(failed[0], &e, sizeof e)) < 0 && errno == EINTR) {
    }
    close(failed[0]);
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (n == static_cast<ssize_t>(sizeof e)) {
      int status;
      waitpid(pid, &status, 0);
      r.start_error = std::strerror(e);
      return r;
    }
  }
  r.started = true;
  out_write.reset();
  err_write.reset();
  if (out_read.fd >= 0 || err_read.fd >= 0) drain(out_read.fd, err_read.fd, r);
  finish(pid, t0, r);
  if (memory_out) take(files.out, r.output, std::string::npos);
  if (memory_err) take(files.err, r.stderr_tail, stderr_tail_bytes);
  if (source) r.counts = scale_sample(source->stop());
  return r;
}

}  // namespace mcpilot
