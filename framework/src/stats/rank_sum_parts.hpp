// What the two files of stats/rank_sum.hpp share: the exact two-sided p, read off the null
// distribution's tables (rank_sum_distribution.cpp) under the cache budget that the test's options
// ask for (rank_sum.cpp), where the public rank_sum_p uses the default budget.
#pragma once

#include <cstddef>
#include <cstdint>

namespace mcpilot::detail {

// rank_sum_p(k, m, u), the table cache allowed at least `budget` cells
// (rank_sum_options::cache_cells). Throws std::invalid_argument when u > k m.
double rank_sum_p_cached(std::size_t k, std::size_t m, std::uint64_t u, std::uint64_t budget);

}  // namespace mcpilot::detail
