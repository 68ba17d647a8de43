// Coverage study of storage.group's intervals: for each case, many independent sessions (seeds
// 1..R) run to their precision, and we count how often the 95% interval holds the exact value.
// A correct interval covers with probability ~0.95; with R sessions the count's standard deviation
// is sqrt(0.95 x 0.05 / R), so a case fails below 0.95 - 3 sd (0.904 at R = 200). The mean of the
// estimates over sessions must also lie within 3 standard errors of the exact value (bias).
// Exit 1 if any case fails. Label `validation`; a couple of minutes on 2 cores.
#include <boost/math/special_functions/gamma.hpp>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "coverage_study.hpp"
#include "mcpilot/session.hpp"
#include "storage/storage_model.hpp"

namespace {

using namespace mcpilot;
using namespace mcpilot::validation;

struct study {
  std::string label;
  std::vector<setting> values;
  std::string quantity;
  double exact;  // < 0: take the model's analytic value
  double ci_perc;
};

int sessions = 200;

bool run_study(const study& s) {
  storage::storage_model m;
  const model_spec spec = configure(m, s.values);
  const double exact = s.exact >= 0 ? s.exact : m.analytic().at(s.quantity);
  return check_coverage(m, spec, {s.label, s.quantity, exact, s.ci_perc}, sessions);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) sessions = std::atoi(argv[1]);
  using I = std::int64_t;
  const double mirror = boost::math::tgamma(1.5) * (2 - 1 / std::sqrt(2.0));
  const std::vector<study> studies = {
      {"naive 4 disks tol 1 l=1 mu=10",
       {{"disks", I{4}},
        {"tolerance", I{1}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1}},
       "mttdl_hours",
       17.0 / 12,
       0.1},
      {"naive 6 disks tol 2 parallel",
       {{"disks", I{6}},
        {"tolerance", I{2}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"repair.parallel", true}},
       "mttdl_hours",
       217.0 / 60,
       0.1},
      {"naive 3 disks tol 1 l=.1 mu=1 mission 10",
       {{"disks", I{3}},
        {"tolerance", I{1}},
        {"lifetime.mean_hours", 10.0},
        {"repair.mean_hours", 1.0},
        {"mission_hours", 10.0}},
       "loss_in_mission",
       0.3179690024113446,
       0.1},
      {"naive mirror weibull(2,1) no repair",
       {{"disks", I{2}},
        {"tolerance", I{1}},
        {"lifetime.distribution", std::string("weibull")},
        {"lifetime.shape", 2.0},
        {"lifetime.scale_hours", 1.0},
        {"repair.distribution", std::string("none")}},
       "mttdl_hours",
       mirror,
       0.05},
      {"naive RAID-5 h=0.1",
       {{"disks", I{4}},
        {"tolerance", I{1}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"rebuild_error_probability", 0.1}},
       "mttdl_hours",
       83.0 / 80,
       0.1},
      {"naive 3 groups of 4/1 mission 0.3",
       {{"disks", I{4}},
        {"tolerance", I{1}},
        {"groups", I{3}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"mission_hours", 0.3}},
       "loss_in_mission",
       -1,
       0.1},
      {"importance 4 disks tol 1 l=1 mu=10",
       {{"disks", I{4}},
        {"tolerance", I{1}},
        {"lifetime.mean_hours", 1.0},
        {"repair.mean_hours", 0.1},
        {"method", std::string("importance")}},
       "mttdl_hours",
       17.0 / 12,
       0.1},
      {"importance RAID-5 8 disks MTTF 1e6 MTTR 24 par.",
       {{"disks", I{8}},
        {"tolerance", I{1}},
        {"repair.parallel", true},
        {"method", std::string("importance")}},
       "mttdl_hours",
       744315476.19047619,
       0.1},
      {"importance target RAID-6 (+-10%)",
       {{"mission_hours", 87600.0}, {"method", std::string("importance")}},
       "mttdl_hours",
       -1,
       0.2},
      {"importance target RAID-6 (+-10%)",
       {{"mission_hours", 87600.0}, {"method", std::string("importance")}},
       "loss_in_mission",
       -1,
       0.2},
      {"importance 100 groups 3-way repl. mission 10y",
       {{"disks", I{3}},
        {"tolerance", I{2}},
        {"groups", I{100}},
        {"lifetime.mean_hours", 300000.0},
        {"repair.mean_hours", 10.0},
        {"repair.parallel", true},
        {"mission_hours", 87600.0},
        {"method", std::string("importance")}},
       "loss_in_mission",
       -1,
       0.2},
      {"importance 100 groups 3-way repl.",
       {{"disks", I{3}},
        {"tolerance", I{2}},
        {"groups", I{100}},
        {"lifetime.mean_hours", 300000.0},
        {"repair.mean_hours", 10.0},
        {"repair.parallel", true},
        {"method", std::string("importance")}},
       "mttdl_hours",
       -1,
       0.2},
  };
  std::printf("storage.group coverage of 95%% intervals over %d sessions per case\n", sessions);
  bool all = true;
  for (const auto& s : studies) all = run_study(s) && all;
  return all ? 0 : 1;
}
