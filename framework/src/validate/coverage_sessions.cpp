#include "coverage_sessions.hpp"

#include <stdexcept>

#include "mcpilot/session.hpp"

namespace mcpilot::validation_detail {

coverage_count count_coverage(const model& m, const std::string& quantity, double truth,
                              const precision& p, std::uint64_t sessions,
                              const study_progress& progress, double from, double to,
                              const std::function<void(const analysis&)>& each) {
  model_spec spec;
  m.declare(spec);
  const int q = spec.quantity_index(quantity);
  if (q < 0) throw std::logic_error("validation: no quantity " + quantity);
  // The interval counted is one the session ran to its precision, also where the model declares
  // the quantity optional (an unavailability beside the loss that drives a session by default).
  spec.quantities()[static_cast<std::size_t>(q)].required = true;
  coverage_count c;
  double readings = 0;
  for (std::uint64_t seed = 1; seed <= sessions; ++seed) {
    session_settings st;
    st.seed = seed;
    st.threads = 2;
    st.engine.session_precision = p;
    st.max_seconds = 60;
    const session_result r = run_session(m, spec, st);
    const analysis& a = r.quantities[static_cast<std::size_t>(q)].stats;
    if (a.ci_low && a.ci_high && *a.ci_low <= truth && truth <= *a.ci_high) ++c.covered;
    if (each) each(a);
    ++c.sessions;
    readings += static_cast<double>(r.replications);
    if (progress)
      progress(from + (to - from) * static_cast<double>(seed) / static_cast<double>(sessions));
  }
  c.mean_readings = readings / static_cast<double>(sessions);
  return c;
}

}  // namespace mcpilot::validation_detail
