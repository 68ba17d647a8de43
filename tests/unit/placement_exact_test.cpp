// placement.design: the exact answers. Each known value is derived by hand beside it (incidence
// counts of the Fano plane, AG(2,3) and PG(2,3)); the model's `analytic` must equal it to 1e-12.
// The counting with cuts is also checked against plain enumeration of every failure set.
#include <gtest/gtest.h>

#include <cmath>

#include "placement/constructions.hpp"
#include "placement/failure_counts.hpp"
#include "placement/lifetime.hpp"
#include "placement/rebuild.hpp"
#include "placement_support.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot::placement;
using placement_test::exact;
using placement_test::make;
using placement_test::mirror_lifetime;

constexpr double tol = 1e-12;

double loss(const char* design, int order, int t, int r) {
  if (order == 0)
    return exact(*make({{"design", design}, {"tolerance", t}, {"failed", r}}), "loss");
  return exact(*make({{"design", design}, {"order", order}, {"tolerance", t}, {"failed", r}}),
               "loss");
}

// Fano, t = 1: any two points lie on exactly one line, so two failed racks always lose exactly
// one group, and E[groups lost | 3 failed] = 7 · P(a line holds ≥ 2 of 3 failed)
// = 7 · [C(3,2)C(4,1) + C(3,3)] / C(7,3) = 7 · 13/35 = 13/5.
TEST(PlacementExact, FanoToleranceOne) {
  EXPECT_NEAR(loss("fano", 0, 1, 2), 1.0, tol);
  const auto two = groups_lost_distribution(fano_plane(), 1, 2);
  EXPECT_EQ(two[1], binomial(7, 2));  // all 21 pairs lose exactly one group
  auto c = make({{"design", "fano"}, {"tolerance", 1}, {"failed", 3}});
  EXPECT_NEAR(exact(*c, "groups_lost"), 13.0 / 5.0, tol);
  EXPECT_NEAR(exact(*c, "fraction_lost"), 13.0 / 35.0, tol);
  EXPECT_NEAR(exact(*c, "loss"), 1.0, tol);
}

// Fano, t = 2: loss needs a whole line down. 7 of the C(7,3) = 35 triples are lines (1/5); a
// 4-set contains a line unless it is the complement of one, 28 of 35 (4/5). A 5-set is the
// complement of a pair {a, b}: 3 lines pass through a, 3 through b, one through both, so 5 lines
// meet the pair and exactly 2 lie inside the 5-set: P(loss) = 1 with exactly 2 groups lost.
TEST(PlacementExact, FanoToleranceTwo) {
  EXPECT_NEAR(loss("fano", 0, 2, 3), 1.0 / 5.0, tol);
  EXPECT_NEAR(loss("fano", 0, 2, 4), 4.0 / 5.0, tol);
  EXPECT_NEAR(loss("fano", 0, 2, 5), 1.0, tol);
  const auto five = groups_lost_distribution(fano_plane(), 2, 5);
  EXPECT_EQ(five[2], binomial(7, 5));  // all 21 five-sets lose exactly 2 groups
  EXPECT_NEAR(loss("fano", 0, 2, 2), 0.0, tol);
}

// AG(2,3), t = 2: 12 lines of 3 on 9 points. 12/C(9,3) = 12/84 = 1/7; a 4-set holds at most one
// line (two lines need 5 points), so 12 · 6 / C(9,4) = 72/126 = 4/7.
TEST(PlacementExact, AffinePlaneOrderThree) {
  EXPECT_NEAR(loss("ag2", 3, 2, 3), 1.0 / 7.0, tol);
  EXPECT_NEAR(loss("ag2", 3, 2, 4), 4.0 / 7.0, tol);
}

// PG(2,3), t = 2: a line loses data with 3 of its 4 points down. Triples on a line: 13 · C(4,3)
// = 52 of C(13,3) = 286 = 2/11. 4-sets with at least 3 points on a line: C(4,3)·9 + 1 = 37 per
// line, and two lines cannot both hold 3 of 4 points (they would need 5): 13 · 37/715 = 37/55.
// PG(2,3), t = 3: a whole line down. Two lines take 7 points (78 pairs), three take 9 as a
// triangle (286 − 13·4 = 234 of them) or 10 if concurrent; by inclusion–exclusion the losing
// r-sets are 13·C(9,r−4) − 78·C(6,r−7) + 234·C(4,r−9) = 13, 117, 468, 1014, 1170, 702 for
// r = 4 … 9, over C(13,r): 1/55, 1/11, 3/11, 13/22, 10/11, 54/55.
TEST(PlacementExact, ProjectivePlaneOrderThree) {
  for (const char* how : {"pg2", "cyclic"}) {
    const auto l = [&](int t, int r) {
      if (std::string(how) == "pg2") return loss("pg2", 3, t, r);
      return exact(*make({{"design", "cyclic"},
                          {"base_block", "0,1,3,9"},
                          {"modulus", 13},
                          {"tolerance", t},
                          {"failed", r}}),
                   "loss");
    };
    EXPECT_NEAR(l(2, 3), 2.0 / 11.0, tol) << how;
    EXPECT_NEAR(l(2, 4), 37.0 / 55.0, tol) << how;
    EXPECT_NEAR(l(3, 4), 1.0 / 55.0, tol) << how;
    EXPECT_NEAR(l(3, 5), 1.0 / 11.0, tol) << how;
    EXPECT_NEAR(l(3, 6), 3.0 / 11.0, tol) << how;
    EXPECT_NEAR(l(3, 7), 13.0 / 22.0, tol) << how;
    EXPECT_NEAR(l(3, 8), 10.0 / 11.0, tol) << how;
    EXPECT_NEAR(l(3, 9), 54.0 / 55.0, tol) << how;
  }
}

// Independent failures: Fano, t = 1 loses data as soon as two racks are down (any two share a
// line): 1 − q⁷ − 7pq⁶. With t = 2 it needs a line: 7p³q⁴ + 28p⁴q³ + 21p⁵q² + 7p⁶q + p⁷
// (the counts of the failed scenario above).
TEST(PlacementExact, IndependentFailuresPolynomial) {
  const auto fano = [](int t, double p) {
    return exact(*make({{"design", "fano"},
                        {"tolerance", t},
                        {"scenario", "independent"},
                        {"failure_probability", p}}),
                 "loss");
  };
  for (double p : {0.1, 0.01}) {
    const double q = 1 - p;
    EXPECT_NEAR(fano(1, p), 1 - std::pow(q, 7) - 7 * p * std::pow(q, 6), tol) << p;
    EXPECT_NEAR(fano(2, p),
                7 * std::pow(p, 3) * std::pow(q, 4) + 28 * std::pow(p, 4) * std::pow(q, 3) +
                    21 * std::pow(p, 5) * q * q + 7 * std::pow(p, 6) * q + std::pow(p, 7),
                tol)
        << p;
  }
  // The rounded figures.
  EXPECT_NEAR(fano(1, 0.1), 0.1496944, 5e-8);
  EXPECT_NEAR(fano(1, 0.01), 2.031042e-3, 5e-10);
  EXPECT_NEAR(fano(2, 0.1), 6.8104e-3, 5e-8);
  // E[groups lost] = 7 · P(Bin(3, p) ≥ 2) for t = 1.
  auto c = make({{"design", "fano"}, {"tolerance", 1}, {"scenario", "independent"}});
  EXPECT_NEAR(exact(*c, "groups_lost"), 7 * (3 * 0.01 * 0.9 + 0.001), tol);
}

// The counting with cuts against plain enumeration, on designs and non-designs: P(loss) from
// surviving_sets equals 1 − P(0 groups lost) from the full distribution, and E[groups lost] from
// the hypergeometric tail equals the distribution's mean.
TEST(PlacementExact, CutCountingMatchesPlainEnumeration) {
  const std::vector<layout> layouts = {projective_plane(3),
                                       steiner_triple_system(15),
                                       random_placement(13, 4, 13, 3),
                                       clustered_placement(12, 3, 16),
                                       copyset_placement(12, 3, 4, 5),
                                       affine_plane(3)};
  for (const auto& l : layouts)
    for (int t = 0; t < l.group_size; ++t)
      for (int r = 0; r <= l.devices; ++r) {
        const auto dist = groups_lost_distribution(l, t, r);
        big_count all = 0;
        long double groups = 0;
        for (std::size_t n = 0; n < dist.size(); ++n) {
          all += dist[n];
          groups += static_cast<long double>(dist[n]) * n;
        }
        ASSERT_EQ(all, binomial(l.devices, r));
        const double plain = static_cast<double>(1.0L - static_cast<long double>(dist[0]) / all);
        const auto counted = loss_given_failed(l, t, r);
        ASSERT_TRUE(counted.has_value());
        EXPECT_NEAR(*counted, plain, tol) << l.name << " t " << t << " r " << r;
        EXPECT_NEAR(static_cast<double>(l.groups.size()) *
                        group_loss_given_failed(l.devices, l.group_size, t, r),
                    static_cast<double>(groups / all), 1e-11)
            << l.name << " t " << t << " r " << r;
      }
}

// The counting bound gives "unknown", never a wrong number: STS(99) with 10 failed needs far
// more than a budget of 10^6 updates, and so does STS(31) with 6 failed; with the default budget
// STS(31) is counted.
TEST(PlacementExact, CountingIsBounded) {
  EXPECT_FALSE(loss_given_failed(steiner_triple_system(99), 2, 10, 1'000'000).has_value());
  EXPECT_FALSE(loss_given_failed(steiner_triple_system(31), 2, 6, 1'000'000).has_value());
  EXPECT_TRUE(loss_given_failed(steiner_triple_system(31), 2, 6).has_value());
  // STS(99), 3 failed: a loss is one of the b = 1617 triples among C(99,3) = 156849 sets.
  EXPECT_NEAR(*loss_given_failed(steiner_triple_system(99), 2, 3), 1617.0 / 156849.0, tol);
  // 4 failed: a 4-set holds at most one triple (two triples share at most one point), so the
  // losing sets are 1617 · 96 of C(99,4) = 3764376.
  EXPECT_NEAR(*loss_given_failed(steiner_triple_system(99), 2, 4), 1617.0 * 96 / 3764376.0, tol);
}

// Beyond 120 devices the counts still run while their binomials fit in 128 bits. PG(2,11)
// (v = 133, lines of 12), t = 2: three failed lose data only on a line, 133 · C(12,3) of
// C(133,3) = 383306 sets. PG(2,31) (v = 993), t = 1: any two failed lie on a line.
TEST(PlacementExact, LargePlanesAreCounted) {
  EXPECT_NEAR(*loss_given_failed(projective_plane(11), 2, 3), 133.0 * 220 / 383306.0, tol);
  EXPECT_NEAR(*loss_given_failed(projective_plane(31), 1, 2), 1.0, tol);
  EXPECT_EQ(binomial(993, 3), static_cast<big_count>(993) * 992 * 991 / 6);
  EXPECT_FALSE(checked_binomial(993, 496).has_value());
}

// Rebuild: in a BIBD every other device shares λ groups with the failed one, so the reads are
// perfectly even (max/mean = 1) and the gain over one-group-at-a-time is r/λ = (v−1)/(k−1).
TEST(PlacementExact, RebuildLoads) {
  rebuild_settings s;
  s.device_bytes = 1.2e13;
  s.bandwidth_bytes_per_hour = 3.6e11;
  s.tolerance = 1;
  for (const auto& l : {projective_plane(3), steiner_triple_system(99), affine_plane(5)}) {
    const auto f = facts_of(l);
    for (const auto& r : rebuild_of_devices(l, s)) {
      EXPECT_EQ(r.max_over_mean_load, 1.0) << l.name;
      EXPECT_NEAR(r.serial_hours / r.parallel_hours, static_cast<double>(f.r_min) / f.lambda_min,
                  1e-12)
          << l.name;
      EXPECT_EQ(r.participants, l.devices - 1);
    }
  }
  // PG(2,3), t = 1: chunk = 1.2e13 · 13 / (13 · 4) = 3e12 B; each survivor reads (4−1)/(4−1) of a
  // chunk per shared group (λ = 1): 3e12 / 3.6e11 = 25/3 h; one group at a time: 4 × 25/3 h.
  const auto pg = rebuild_of_devices(projective_plane(3), s);
  EXPECT_NEAR(pg[0].parallel_hours, 25.0 / 3.0, 1e-12);
  EXPECT_NEAR(pg[0].serial_hours, 100.0 / 3.0, 1e-12);
  // Clustered: the same k − 1 devices hold all of a device's groups: no gain.
  for (const auto& r : rebuild_of_devices(clustered_placement(12, 3, 16), s)) {
    EXPECT_EQ(r.max_over_mean_load, 1.0);
    EXPECT_NEAR(r.serial_hours, r.parallel_hours, 1e-12);
  }
  // A hand-made layout: device 0 shares 2 groups with 1 and 3, one with 2 and 4: loads 2,1,2,1,
  // max over mean = 2 / 1.5 = 4/3.
  layout h;
  h.devices = 5;
  h.group_size = 3;
  h.groups = {{0, 1, 2}, {0, 3, 4}, {0, 1, 3}};
  EXPECT_NEAR(rebuild_of_devices(h, s)[0].max_over_mean_load, 4.0 / 3.0, 1e-15);
}

// Fano, t = 1, exponential lifetimes (rate a) and repairs (rate m), no rebuild time: from all up,
// the first failure comes at rate 7a; with one down, a repair (m) returns to all up and any of the
// 6 other failures loses data. m0 = 1/(7a) + m1, m1 = 1/(m+6a) + m/(m+6a) m0, so
// MTTDL = m0 = (m + 13a) / (42 a²).
TEST(PlacementExact, LifetimeMarkovChain) {
  auto c = make({{"design", "fano"},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 1000.0},
                 {"lifetime.mean_hours", 10000.0},
                 {"repair.mean_hours", 50.0}});
  const double a = 1e-4, m = 1 / 50.0;
  EXPECT_NEAR(exact(*c, "mttdl_hours") / ((m + 13 * a) / (42 * a * a)), 1.0, 1e-12);
  EXPECT_TRUE(c->model.analytic().contains("loss_in_mission"));
  // With a rebuild time the chain is not Markov: no exact MTTDL, but exact rebuild figures.
  auto d = make({{"design", "fano"},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", 1000.0},
                 {"rebuild.device_bytes", 3.6e12}});
  EXPECT_FALSE(d->model.analytic().contains("mttdl_hours"));
  // Fano, t = 1: chunk = 3.6e12 · 7/(7 · 3) = 1.2e12 B, each survivor reads 1 chunk per shared
  // group (λ = 1) at 3.6e11 B/h: 10/3 h.
  EXPECT_NEAR(exact(*d, "rebuild_hours"), 10.0 / 3.0, 1e-12);
  EXPECT_EQ(exact(*d, "rebuild_max_over_mean_load"), 1.0);
}

// One mirrored pair (clustered, v = k = 2, t = 1), lifetimes at rate a, repairs at rate m, both
// devices in one domain whose failures (rate r) destroy both. From both up, a device failure (2a)
// leaves one down and a domain failure (r) loses data; from one down, the repair (m) returns, and
// the partner's failure (a) or the domain's (r) loses data: m0 = 1/(2a+r) + 2a/(2a+r) m1,
// m1 = 1/(m+a+r) + m/(m+a+r) m0, so MTTDL = (m + 3a + r) / ((2a + r)(m + a + r) - 2am). With one
// device per domain (count 2) a domain failure is one more device failure: (m + 3(a+r)) /
// (2(a+r)^2), the first formula's r = 0 case at a + r.
TEST(PlacementExact, DomainFailuresMirrorClosedForm) {
  const double a = 1e-3, m = 1 / 50.0, r = 2e-4;
  auto one = mirror_lifetime({{"mission_hours", 1000.0},
                              {"lifetime.mean_hours", 1000.0},
                              {"repair.mean_hours", 50.0},
                              {"domains.count", 1},
                              {"domains.failure_rate_per_hour", r}});
  EXPECT_NEAR(
      exact(*one, "mttdl_hours") / ((m + 3 * a + r) / ((2 * a + r) * (m + a + r) - 2 * a * m)), 1.0,
      1e-12);
  auto two = mirror_lifetime({{"mission_hours", 1000.0},
                              {"lifetime.mean_hours", 1000.0},
                              {"repair.mean_hours", 50.0},
                              {"domains.count", 2},
                              {"domains.failure_rate_per_hour", r}});
  EXPECT_NEAR(exact(*two, "mttdl_hours") / ((m + 3 * (a + r)) / (2 * (a + r) * (a + r))), 1.0,
              1e-12);
  // A domain failure that cannot lose by itself leaves fraction_lost to the simulation.
  EXPECT_FALSE(two->model.analytic().contains("fraction_lost"));
}

// AG(2,3) (v = 9, k = 3, every pair in one group), t = 1, racks {0,3,6}, {1,4,7}, {2,5,8}: any two
// devices down lose data, and so does any rack failure. From all up: 9a to one down, 3r to loss.
// From one down: m back; 8a or any of the 3 rack failures (each takes a device of the lost pair)
// to loss. MTTDL = (m + 17a + 3r) / ((9a + 3r)(m + 8a + 3r) - 9am).
TEST(PlacementExact, RackFailuresOnAnAffinePlane) {
  const double a = 1e-3, m = 1 / 50.0, r = 1e-4;
  auto c = placement_test::ag2_racks();
  const double mttdl = (m + 17 * a + 3 * r) / ((9 * a + 3 * r) * (m + 8 * a + 3 * r) - 9 * a * m);
  EXPECT_NEAR(exact(*c, "mttdl_hours") / mttdl, 1.0, 1e-12);
}

// Fano, t = 1, independent devices: the expected fraction of groups lost is one group's P(loss by
// T). A group of 3 with t = 1: from none down, 3a to one down; from one down, m back and 2a to
// loss. The survival S(t) from none down solves S'' + (5a + m) S' + 6a^2 S = 0 with S(0) = 1,
// S'(0) = 0: S = (l2 e^{l1 t} - l1 e^{l2 t}) / (l2 - l1), l1, l2 the roots of
// x^2 + (5a + m) x + 6a^2.
TEST(PlacementExact, FractionLostIsOneGroupsLoss) {
  const double a = 1e-4, m = 1 / 50.0, T = 1000;
  auto c = make({{"design", "fano"},
                 {"tolerance", 1},
                 {"scenario", "lifetime"},
                 {"mission_hours", T},
                 {"lifetime.mean_hours", 1 / a},
                 {"repair.mean_hours", 1 / m}});
  const double b = 5 * a + m, disc = std::sqrt(b * b - 24 * a * a);
  const double l1 = (-b + disc) / 2, l2 = (-b - disc) / 2;
  const double survive = (l2 * std::exp(l1 * T) - l1 * std::exp(l2 * T)) / (l2 - l1);
  EXPECT_NEAR(exact(*c, "fraction_lost") / ((1 - survive) / (T / 8766)), 1.0, 1e-9);
}

}  // namespace MCPILOT_TEST_FILE
