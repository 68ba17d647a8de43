// placement.design: every construction passes its own verification (each pair covered exactly λ
// times, r and b consistent), with the parameters the design theory gives; designs that do not
// exist are refused naming the field.
#include <gtest/gtest.h>

#include <set>

#include "mcpilot/parameters.hpp"
#include "placement/constructions.hpp"
#include "placement/failure_counts.hpp"
#include "placement_support.hpp"

namespace MCPILOT_TEST_FILE {

using namespace mcpilot::placement;
using placement_test::rejected_field;

// A BIBD's parameters, checked independently of verify_design (which also ran at construction).
void expect_bibd(const layout& l, int v, int b, int r, int k, int lambda) {
  const layout_facts f = facts_of(l);
  EXPECT_EQ(f.v, v) << l.name;
  EXPECT_EQ(f.b, b) << l.name;
  EXPECT_EQ(f.k, k) << l.name;
  EXPECT_EQ(f.r_min, r) << l.name;
  EXPECT_EQ(f.r_max, r) << l.name;
  EXPECT_EQ(f.lambda_min, lambda) << l.name;
  EXPECT_EQ(f.lambda_max, lambda) << l.name;
  EXPECT_TRUE(f.balanced()) << l.name;
  // No group twice.
  std::set<std::vector<int>> distinct(l.groups.begin(), l.groups.end());
  EXPECT_EQ(static_cast<int>(distinct.size()), b) << l.name;
}

TEST(PlacementDesigns, FanoAndCyclicPg23) {
  expect_bibd(fano_plane(), 7, 7, 3, 3, 1);
  expect_bibd(cyclic_design({0, 1, 3, 9}, 13, "base_block"), 13, 13, 4, 4, 1);
  // {0,1,2,3} mod 7 is not a difference set: 1 = 1-0 = 2-1 = 3-2 arises three times, 3 = 3-0
  // once. Its size allows lambda = 12/6 = 2, but verification finds pairs covered 1 to 3 times
  // and refuses it.
  EXPECT_THROW(cyclic_design({0, 1, 2, 3}, 7, "base_block"), mcpilot::parameter_error);
  // {0,1,2,4} mod 7, the complement of {3,5,6}, is a (7, 4, 2) difference set.
  expect_bibd(cyclic_design({0, 1, 2, 4}, 7, "base_block"), 7, 7, 4, 4, 2);
  // The (11, 5, 2) biplane: quadratic residues mod 11.
  expect_bibd(cyclic_design({1, 3, 4, 5, 9}, 11, "base_block"), 11, 11, 5, 5, 2);
}

// PG(2,q): v = b = q²+q+1, r = k = q+1, λ = 1, for every prime q ≤ 31.
TEST(PlacementDesigns, SingerPlanesForEveryPrimeUpTo31) {
  for (int q : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31}) {
    const int n = q * q + q + 1;
    expect_bibd(projective_plane(q), n, n, q + 1, q + 1, 1);
    // A perfect difference set: the q(q+1) differences are the nonzero residues, once each.
    const auto d = singer_difference_set(q);
    std::multiset<int> diff;
    for (int a : d)
      for (int b : d)
        if (a != b) diff.insert(((a - b) % n + n) % n);
    for (int x = 1; x < n; ++x) EXPECT_EQ(diff.count(x), 1u) << "q " << q << " x " << x;
  }
  EXPECT_EQ(rejected_field({{"design", "pg2"}, {"order", 6}}), "order");
  EXPECT_EQ(rejected_field({{"design", "pg2"}, {"order", 37}}), "order");
  EXPECT_EQ(rejected_field({{"design", "pg2"}}), "order");  // order is required
}

// AG(2,q): v = q², b = q²+q, r = q+1, k = q, λ = 1.
TEST(PlacementDesigns, AffinePlanes) {
  for (int q : {2, 3, 5, 7, 11, 13}) expect_bibd(affine_plane(q), q * q, q * q + q, q + 1, q, 1);
  EXPECT_EQ(rejected_field({{"design", "ag2"}, {"order", 4}}), "order");
}

// STS(v) for every v ≡ 1, 3 (mod 6) up to 99: b = v(v−1)/6, r = (v−1)/2.
TEST(PlacementDesigns, SteinerTripleSystemsUpTo99) {
  int built = 0;
  for (int v = 3; v <= 99; ++v) {
    if (v % 6 != 1 && v % 6 != 3) {
      EXPECT_THROW(steiner_triple_system(v), mcpilot::parameter_error) << v;
      continue;
    }
    expect_bibd(steiner_triple_system(v), v, v * (v - 1) / 6, (v - 1) / 2, 3, 1);
    ++built;
  }
  EXPECT_EQ(built, 33);  // 3, 7, 9, 13, ..., 97, 99
  EXPECT_EQ(rejected_field({{"design", "sts"}, {"devices", 8}}), "devices");
  EXPECT_EQ(rejected_field({{"design", "sts"}, {"devices", 105}}), "devices");
}

// The complete design of k-subsets: b = C(v,k), r = C(v−1,k−1), λ = C(v−2,k−2).
TEST(PlacementDesigns, CompleteDesign) {
  expect_bibd(complete_design(7, 3, 1000), 7, 35, 15, 3, 5);
  expect_bibd(complete_design(9, 4, 1000), 9, 126, 56, 4, 21);
  EXPECT_THROW(complete_design(30, 10, 1000), mcpilot::parameter_error);
}

TEST(PlacementDesigns, NonDesignPlacements) {
  // Clustered: 3 clusters of 3 on 9 devices, 12 groups (4 per cluster): pairs in a cluster share
  // 4 groups, the others none.
  const layout c = clustered_placement(9, 3, 12);
  const layout_facts fc = facts_of(c);
  EXPECT_EQ(fc.b, 12);
  EXPECT_EQ(fc.r_min, 4);
  EXPECT_EQ(fc.r_max, 4);
  EXPECT_EQ(fc.lambda_min, 0);
  EXPECT_EQ(fc.lambda_max, 4);
  EXPECT_FALSE(fc.balanced());
  // Random: reproducible from its seed, k distinct devices per group.
  const layout r1 = random_placement(13, 4, 13, 7), r2 = random_placement(13, 4, 13, 7);
  EXPECT_EQ(r1.groups, r2.groups);
  EXPECT_NE(r1.groups, random_placement(13, 4, 13, 8).groups);
  for (const auto& g : r1.groups) {
    EXPECT_EQ(g.size(), 4u);
    EXPECT_EQ(std::set<int>(g.begin(), g.end()).size(), 4u);
  }
  // Copyset: scatter width 4 with k = 3 is 2 permutations of 9 devices, 6 copysets; every device
  // is in exactly 2, and shares a copyset with at most 4 others.
  const layout cs = copyset_placement(9, 3, 4, 1);
  const layout_facts fs = facts_of(cs);
  EXPECT_EQ(fs.b, 6);
  EXPECT_EQ(fs.r_min, 2);
  EXPECT_EQ(fs.r_max, 2);
  EXPECT_EQ(rejected_field({{"design", "clustered"}, {"devices", 10}, {"group_size", 3}}),
            "devices");
  EXPECT_EQ(rejected_field(
                {{"design", "copyset"}, {"devices", 9}, {"group_size", 3}, {"scatter_width", 1}}),
            "scatter_width");
}

TEST(PlacementDesigns, ParametersOfOtherDesignsAreRefused) {
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"order", 3}}), "order");
  EXPECT_EQ(rejected_field({{"design", "pg2"}, {"order", 3}, {"devices", 13}}), "devices");
  EXPECT_EQ(rejected_field({{"design", "sts"}, {"devices", 9}, {"group_size", 4}}), "group_size");
  EXPECT_EQ(rejected_field({{"design", "sts"}, {"devices", 9}, {"group_size", 3}}), "");
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"modulus", 7}}), "modulus");
  EXPECT_EQ(rejected_field({{"design", "cyclic"}, {"base_block", "0,1,3"}}), "modulus");
  EXPECT_EQ(rejected_field({{"design", "cyclic"}, {"base_block", "0,1,x"}, {"modulus", 7}}),
            "base_block");
}

TEST(PlacementDesigns, ToleranceAndFailedAreChecked) {
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"tolerance", 3}}), "tolerance");
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"failed", 8}}), "failed");
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"failed", 7}}), "");
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"scenario", "lifetime"}}), "mission_hours");
  // Domains and outages: a count that does not divide v, and fields of the lifetime scenario
  // given to another.
  EXPECT_EQ(rejected_field({{"design", "fano"},
                            {"scenario", "lifetime"},
                            {"mission_hours", 100.0},
                            {"domains.count", 2},
                            {"domains.failure_rate_per_hour", 1e-4}}),
            "domains.count");
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"domains.count", 7}}), "domains.count");
  EXPECT_EQ(rejected_field({{"design", "fano"},
                            {"scenario", "lifetime"},
                            {"mission_hours", 100.0},
                            {"outage.rate_per_hour", 1e-3},
                            {"outage.mean_hours", 200.0}}),
            "outage.mean_hours");
  // 10^6 outages per device-hour over a year: some 6e10 events in one replication.
  EXPECT_EQ(rejected_field({{"design", "fano"},
                            {"scenario", "lifetime"},
                            {"mission_hours", 8766.0},
                            {"outage.rate_per_hour", 1e6},
                            {"outage.mean_hours", 1e-9}}),
            "outage.rate_per_hour");
  EXPECT_EQ(rejected_field({{"design", "fano"}, {"mission_hours", 100.0}}), "mission_hours");
}

}  // namespace MCPILOT_TEST_FILE
