#pragma once
// The `storage.group` model: a system of redundancy groups (RAID, replication, erasure codes),
// its mean time to data loss and its probability of loss within a mission. See
// docs/models/storage.md for the model, its assumptions and its estimators.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "mcpilot/model.hpp"
#include "storage/availability_chain.hpp"
#include "storage/domain_walk.hpp"
#include "storage/down_set_chain.hpp"
#include "storage/group_simulation.hpp"
#include "storage/importance.hpp"
#include "storage/nines.hpp"
#include "storage/outage_laws.hpp"

namespace mcpilot::storage {

class storage_model : public model {
 public:
  // The parameters are always the same; the quantities follow the configuration (the method, and
  // whether a mission time is set), so declare() reads the configured state and the SDK declares
  // again after configure().
  void declare(model_spec& spec) const override;
  void configure(const parameters& p) override;
  void replicate(replication& r) const override;
  std::map<std::string, double> analytic() const override;

  std::vector<model_fact> model_facts() const override;

  // How the quantities are estimated: naive simulation; importance sampling on the Markov chain
  // (importance.hpp: exponential laws, regenerative MTTDL and mission); or failure biasing on the
  // event simulation (failure_biasing.hpp: any laws, loss_in_mission only).
  enum class estimator { naive, markov_chain, failure_biasing };
  estimator method() const { return method_; }
  bool importance() const { return method_ != estimator::naive; }
  const group_config& group() const { return group_; }

 private:
  group_config group_;
  int groups_ = 1;
  std::optional<double> mission_;
  estimator method_ = estimator::naive;
  std::string reason_;  // why this method (auto's reasoning, or the config's choice)
  double approximate_loss_ = -1;
  system_rates chain_;  // importance sampling (exponential laws only)
  // Importance sampling of loss with several devices per failure domain (domain_walk.hpp).
  std::optional<domain_walk_rates> domain_walk_;
  // Importance sampling of unavailability where the availability chain does not reach.
  std::optional<domain_walk_rates> availability_walk_;
  std::map<std::string, double> exact_;
  domain_config domains_;
  double steady_unavailability_ = -1;  // exact, when the availability chain applies

  std::optional<availability_chain> availability_;  // one group's, when exact (exponential laws)

  double quadrature_error_ = -1;  // of the exact MTTDL without repair (any lifetime law)

  // Outages of devices or of their domains: what makes unavailability something to estimate.
  bool any_outages() const {
    return group_.outage.active() || (domains_.count > 0 && domains_.outage.active());
  }
  // Unavailability estimated by importance sampling, on the chain or on the explicit state.
  bool availability_by_importance() const {
    return (availability_ || availability_walk_) && any_outages();
  }
  // Why the availability chain does not cover this configuration (set by exact_availability and
  // configure); empty when it does.
  std::string availability_gap_;
  void declare_absent_quantities(model_spec& s) const;
  void exact_availability();
  void exact_unrepaired();
  void availability_walk();
  down_set_rates down_sets() const;
  void declare_availability_by_importance(model_spec& s) const;
};

}  // namespace mcpilot::storage
