// storage.group's parameter checks: each mistake is a parameter_error naming the field.
#include <gtest/gtest.h>

#include <string>

#include "storage_support.hpp"

namespace MCPILOT_TEST_FILE {

using namespace storage_test;

// Runs make() and returns the field and message of the parameter_error it throws.
std::pair<std::string, std::string> error_of(
    std::initializer_list<std::pair<const char*, value>> values) {
  try {
    make(values);
  } catch (const mcpilot::parameter_error& e) {
    return {e.field(), e.what()};
  }
  return {"", "no error"};
}

void expect_error(std::initializer_list<std::pair<const char*, value>> values,
                  const std::string& field, const std::string& fragment) {
  const auto [f, what] = error_of(values);
  EXPECT_EQ(f, field) << what;
  EXPECT_NE(what.find(fragment), std::string::npos) << what;
}

TEST(StorageParameters, ToleranceMustBeBelowDisks) {
  expect_error({{"disks", 4}, {"tolerance", 4}}, "tolerance", "tolerance must be below disks");
  expect_error({{"disks", 4}, {"tolerance", 7}}, "tolerance", "at most 3 failures");
  // Valid, but naive simulation would follow about 1.2e13 failures to one loss (1e6 h lives,
  // 4 disks of which 3 may fail): refused under method = naive, run by importance sampling.
  EXPECT_NO_THROW(make({{"disks", 4}, {"tolerance", 3}, {"method", "importance"}}));
  expect_error({{"disks", 4}, {"tolerance", 3}}, "method", "disk failures before one");
  EXPECT_NO_THROW(make({{"disks", 1}, {"tolerance", 0}}));
}

TEST(StorageParameters, LatentErrorsNeedRedundancy) {
  expect_error({{"disks", 2}, {"tolerance", 0}, {"latent.rate_per_hour", 1e-4}},
               "latent.rate_per_hour", "need tolerance >= 1");
}

TEST(StorageParameters, NegativeOrZeroHours) {
  expect_error({{"lifetime.mean_hours", -5.0}}, "lifetime.mean_hours", "must be > 0");
  expect_error({{"repair.mean_hours", 0.0}}, "repair.mean_hours", "must be > 0");
  expect_error({{"mission_hours", -1.0}}, "mission_hours", "must be > 0");
  expect_error({{"scrub.interval_hours", -168.0}}, "scrub.interval_hours", "must be > 0");
  expect_error({{"lifetime.location_hours", -1.0}}, "lifetime.location_hours", "must be >= 0");
  expect_error({{"latent.rate_per_hour", -1e-4}}, "latent.rate_per_hour", "must be >= 0");
  expect_error({{"rebuild_error_probability", 1.5}}, "rebuild_error_probability", "<= 1");
  expect_error({{"disks", 0}}, "disks", ">= 1");
}

TEST(StorageParameters, UnknownDistribution) {
  expect_error({{"lifetime.distribution", "gamma"}}, "lifetime.distribution",
               "must be one of exponential, weibull");
  expect_error({{"repair.distribution", "uniform"}}, "repair.distribution",
               "exponential, deterministic, lognormal, weibull, none");
  expect_error({{"method", "splitting"}}, "method", "naive, importance, auto");
}

TEST(StorageParameters, WeibullNeedsShapeAndScale) {
  expect_error({{"lifetime.distribution", "weibull"}, {"lifetime.scale_hours", 461386.0}},
               "lifetime.shape", "lifetime.distribution = weibull needs lifetime.shape");
  expect_error({{"lifetime.distribution", "weibull"}, {"lifetime.shape", 1.12}},
               "lifetime.scale_hours", "needs lifetime.scale_hours");
  expect_error({{"repair.distribution", "weibull"}, {"repair.scale_hours", 12.0}}, "repair.shape",
               "repair.distribution = weibull needs repair.shape");
}

TEST(StorageParameters, FieldsOfAnotherLawAreRejected) {
  expect_error({{"lifetime.shape", 1.12}}, "lifetime.shape",
               "applies to lifetime.distribution = weibull only, not exponential");
  expect_error({{"lifetime.location_hours", 10.0}}, "lifetime.location_hours", "weibull only");
  expect_error({{"repair.shape", 2.0}}, "repair.shape", "weibull or lognormal only");
  expect_error({{"repair.distribution", "deterministic"}, {"repair.scale_hours", 3.0}},
               "repair.scale_hours", "weibull only, not deterministic");
}

// method = importance: the Markov chain's estimators for exponential laws; failure biasing
// (loss_in_mission only) for the rest, which therefore needs mission_hours.
TEST(StorageParameters, ImportanceBeyondMarkovNeedsAMission) {
  using estimator = mcpilot::storage::storage_model::estimator;
  const std::string alternatives =
      "set mission_hours (failure biasing, any laws), or method = naive";
  expect_error({{"method", "importance"},
                {"lifetime.distribution", "weibull"},
                {"lifetime.shape", 1.12},
                {"lifetime.scale_hours", 461386.0}},
               "method", "lifetime.distribution is weibull, so it estimates loss_in_mission only");
  expect_error({{"method", "importance"}, {"repair.distribution", "deterministic"}}, "method",
               "repair.distribution is deterministic");
  expect_error({{"method", "importance"}, {"repair.distribution", "none"}}, "method",
               "repair.distribution is none");
  expect_error({{"method", "importance"}, {"latent.rate_per_hour", 1e-5}}, "method", alternatives);
  EXPECT_EQ(make({{"method", "importance"}, {"rebuild_error_probability", 0.01}})->model.method(),
            estimator::markov_chain);
  for (const auto& c :
       {make({{"method", "importance"},
              {"lifetime.distribution", "weibull"},
              {"lifetime.shape", 1.12},
              {"lifetime.scale_hours", 461386.0},
              {"mission_hours", 8760.0}}),
        make(
            {{"method", "importance"}, {"repair.distribution", "none"}, {"mission_hours", 8760.0}}),
        make({{"method", "importance"},
              {"latent.rate_per_hour", 1e-5},
              {"mission_hours", 8760.0}})}) {
    EXPECT_EQ(c->model.method(), estimator::failure_biasing);
    ASSERT_EQ(c->spec.quantities().size(), 2u);
    EXPECT_EQ(c->spec.quantities()[0].name, "loss_in_mission");
    EXPECT_EQ(c->spec.quantities()[1].name, "durability_nines");  // derived from it
  }
}

// Laws whose evaluation overflows a double are refused at configuration, naming the field: the
// check evaluates Gamma(1 + 1/shape), the mean and the cumulative hazard over the mission (or an
// hour), and for a lognormal mu = ln(mean) - sigma^2/2 and exp(mu + 8 sigma).
TEST(StorageParameters, OverflowingLaws) {
  const auto weibull = [](double shape, double scale) {
    return error_of({{"lifetime.distribution", "weibull"},
                     {"lifetime.shape", shape},
                     {"lifetime.scale_hours", scale}});
  };
  EXPECT_EQ(weibull(1e-300, 461386.0).first, "lifetime.shape");
  EXPECT_EQ(weibull(0.005, 461386.0).first, "lifetime.shape");  // Gamma(201) > 1.8e308
  EXPECT_EQ(weibull(1.12, 1e-300).first, "lifetime.scale_hours");
  EXPECT_EQ(weibull(1.12, 1e-300).second.find("overflows") != std::string::npos, true);
  // Gamma(101) ~ 9.3e157 evaluates, but a mean life of 4e163 h makes naive simulation to a
  // loss endless: refused, at the method, not at the law.
  EXPECT_EQ(weibull(0.01, 461386.0).first, "method");
  EXPECT_EQ(weibull(1.12, 1e-3).first, "");  // (1 h / 1e-3 h)^1.12: fine
  expect_error(
      {{"repair.distribution", "weibull"}, {"repair.shape", 1e-300}, {"repair.scale_hours", 12.0}},
      "repair.shape", "Gamma(1 + 1/shape)");
  expect_error({{"repair.distribution", "weibull"},
                {"repair.shape", 2.0},
                {"repair.scale_hours", 1e-300},
                {"mission_hours", 87600.0}},
               "repair.scale_hours", "overflows");
  expect_error({{"repair.distribution", "lognormal"}, {"repair.shape", 1e300}}, "repair.shape",
               "overflows");
  // mu = ln(1e300) - 12.5 = 678.3; exp(678.3 + 40) > 1.8e308.
  expect_error(
      {{"repair.distribution", "lognormal"}, {"repair.mean_hours", 1e300}, {"repair.shape", 5.0}},
      "repair.mean_hours", "exp(mu + 8 sigma)");
  EXPECT_NO_THROW(make({{"repair.distribution", "lognormal"}, {"repair.shape", 2.0}}));
}

TEST(StorageParameters, AnalyticOnlyForMarkovConfigurations) {
  EXPECT_EQ(make({})->model.analytic().size(), 1u);
  // With a mission: loss_in_mission, and what follows from the chains (durability_nines,
  // fraction_lost, unavailability, unavailable_events_per_year).
  EXPECT_EQ(make({{"mission_hours", 10.0}})->model.analytic().size(), 6u);
  EXPECT_EQ(make({{"mission_hours", 10.0}, {"method", "importance"}})->model.analytic().size(), 3u);
  EXPECT_EQ(make({{"repair.distribution", "none"}})->model.analytic().size(), 1u);
  EXPECT_TRUE(make({{"repair.distribution", "deterministic"}})->model.analytic().empty());
  EXPECT_TRUE(make({{"latent.rate_per_hour", 1e-5}})->model.analytic().empty());
}

}  // namespace MCPILOT_TEST_FILE

namespace MCPILOT_TEST_FILE {

TEST(StorageParameters, OutagesAndDomains) {
  // Rates <= 0.
  expect_error({{"outage.rate_per_hour", 0.0}}, "outage.rate_per_hour", "must be > 0");
  expect_error({{"domains.failure_rate_per_hour", -1e-6}}, "domains.failure_rate_per_hour",
               "must be > 0");
  expect_error({{"domains.outage_rate_per_hour", 0.0}}, "domains.outage_rate_per_hour",
               "must be > 0");
  // A rate without its duration, a duration without its rate, a shape with a law that has none.
  expect_error({{"outage.rate_per_hour", 1e-4}}, "outage.mean_hours", "is needed too");
  expect_error({{"outage.mean_hours", 0.25}}, "outage.mean_hours", "without a rate");
  expect_error({{"outage.rate_per_hour", 1e-4}, {"outage.mean_hours", 0.25}, {"outage.shape", 1.0}},
               "outage.shape", "lognormal only");
  // Outages longer than the mission.
  expect_error(
      {{"outage.rate_per_hour", 1e-4}, {"outage.mean_hours", 200.0}, {"mission_hours", 100.0}},
      "outage.mean_hours", "longer than mission_hours");
  expect_error({{"domains.count", 2},
                {"disks", 4},
                {"domains.outage_rate_per_hour", 1e-5},
                {"domains.outage_mean_hours", 9e4},
                {"mission_hours", 8766.0}},
               "domains.outage_mean_hours", "longer than mission_hours");
  // Domains that do not divide the devices, events without domains, domains without events.
  expect_error({{"disks", 10}, {"domains.count", 3}, {"domains.failure_rate_per_hour", 1e-6}},
               "domains.count", "does not divide the 10 devices");
  expect_error({{"disks", 10},
                {"groups", 2},
                {"domains.count", 40},
                {"domains.failure_rate_per_hour", 1e-6}},
               "domains.count", "does not divide the 20 devices");
  expect_error({{"domains.failure_rate_per_hour", 1e-6}}, "domains.failure_rate_per_hour",
               "need domains.count");
  expect_error({{"disks", 10}, {"domains.count", 2}}, "domains.count", "no domain event");
  EXPECT_NO_THROW(make({{"disks", 10},
                        {"groups", 3},
                        {"domains.count", 5},
                        {"domains.failure_rate_per_hour", 1e-6}}));
  // Importance sampling carries correlated domain failures only under memoryless laws; it names
  // the alternatives.
  expect_error({{"disks", 10},
                {"domains.count", 2},
                {"domains.failure_rate_per_hour", 1e-6},
                {"lifetime.distribution", "weibull"},
                {"lifetime.shape", 1.12},
                {"lifetime.scale_hours", 461386.0},
                {"mission_hours", 8766.0},
                {"method", "importance"}},
               "method", "method = naive");
  EXPECT_NO_THROW(make({{"disks", 10},
                        {"domains.count", 2},
                        {"domains.failure_rate_per_hour", 1e-6},
                        {"method", "importance"}}));
}

TEST(StorageParameters, QuantitiesFollowTheConfiguration) {
  // Without a mission, none of the mission quantities is declared (asking for one in a config is
  // then "unknown quantity", exit 2); naive with a mission declares them all.
  const auto none = make({{"disks", 4}, {"tolerance", 1}});
  for (const char* q :
       {"unavailability", "fraction_lost", "durability_nines", "unavailable_events_per_year"})
    EXPECT_LT(none->spec.quantity_index(q), 0) << q;
  const auto all = make({{"disks", 4}, {"tolerance", 1}, {"mission_hours", 8766.0}});
  for (const char* q :
       {"unavailability", "fraction_lost", "durability_nines", "unavailable_events_per_year"}) {
    ASSERT_GE(all->spec.quantity_index(q), 0) << q;
    EXPECT_FALSE(
        all->spec.quantities()[static_cast<std::size_t>(all->spec.quantity_index(q))].required)
        << q;
  }
  // Importance sampling estimates loss only: durability_nines, not the availability quantities.
  const auto is =
      make({{"disks", 4}, {"tolerance", 1}, {"mission_hours", 8766.0}, {"method", "importance"}});
  EXPECT_GE(is->spec.quantity_index("durability_nines"), 0);
  EXPECT_LT(is->spec.quantity_index("unavailability"), 0);
  // Each quantity left out says why, for the config reader's message.
  auto why = [](const auto& c, const char* q) {
    const std::string* w = c->spec.why_not_estimated(q);
    return w ? *w : std::string("(none)");
  };
  EXPECT_NE(why(none, "unavailability").find("set mission_hours"), std::string::npos);
  EXPECT_NE(why(is, "unavailability").find("no outages are configured"), std::string::npos);
  EXPECT_NE(why(is, "fraction_lost").find("not how much is lost"), std::string::npos);
  EXPECT_EQ(why(all, "unavailability"), "(none)");  // declared
  // Domain outages over domains of two devices, and domain outages that overlap too often for
  // the availability chain's cut: importance sampling on the explicit state estimates both.
  const auto shared = make({{"disks", 4},
                            {"tolerance", 1},
                            {"outage.rate_per_hour", 1e-3},
                            {"outage.mean_hours", 0.25},
                            {"domains.count", 2},
                            {"domains.outage_rate_per_hour", 1e-4},
                            {"domains.outage_mean_hours", 1.0},
                            {"method", "importance"}});
  EXPECT_EQ(why(shared, "unavailability"), "(none)");
  EXPECT_GE(shared->spec.quantity_index("unavailability"), 0);
  const auto overlapping = make({{"disks", 3},
                                 {"tolerance", 2},
                                 {"domains.count", 3},
                                 {"domains.outage_rate_per_hour", 1.0},
                                 {"domains.outage_mean_hours", 1.0},
                                 {"method", "importance"}});
  EXPECT_EQ(why(overlapping, "unavailability"), "(none)");
  EXPECT_EQ(overlapping->model.analytic().count("unavailability"), 0u);  // no chain, no exact
  // Lognormal outages: neither the chain nor the walk, and the reason names the field.
  const auto lognormal = make({{"disks", 3},
                               {"tolerance", 2},
                               {"outage.rate_per_hour", 1e-3},
                               {"outage.mean_hours", 0.25},
                               {"outage.distribution", "lognormal"},
                               {"method", "importance"}});
  EXPECT_NE(why(lognormal, "unavailability").find("outage.distribution"), std::string::npos)
      << why(lognormal, "unavailability");
}

}  // namespace MCPILOT_TEST_FILE
