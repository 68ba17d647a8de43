#pragma once
// task_cancelled: thrown by a task that ends itself early because its session was asked to stop
// (max_seconds, Ctrl-C, SIGTERM). The runner counts such a task as not run, not as failed: its
// index ends the prefix of indices kept, like an index never started. A replication's random
// stream throws it (philox_stream::stop_on), so that a replication that simulates for minutes
// (a rare loss followed event by event) does not hold a limit up for its whole length.
//
// Not a std::exception on purpose: a model's `catch (const std::exception&)` must not swallow it.

namespace mcpilot {

struct task_cancelled {};

}  // namespace mcpilot
