#pragma once
// timed_region_should_stop(): whether the session running this timed region has been asked to stop
// (max_seconds reached, Ctrl-C, SIGTERM). A workload whose timed() can last long (one sort of 10^7
// keys takes a second; a quadratic sort of 10^5 keys, ten) polls it at coarse intervals and
// returns at once, unfinished, when it is true: the framework then discards the reading (its time
// is not the operation's), skips check(), and ends the session, so that a limit or an interrupt
// acts within a poll interval rather than after a whole reading.
//
// Cost: one relaxed atomic load and a call into the framework; poll it once per pass or per large
// block of work, never per element. Outside a timed region it returns false.

namespace mcpilot {

bool timed_region_should_stop() noexcept;

}  // namespace mcpilot
