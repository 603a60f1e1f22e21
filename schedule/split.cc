// The scheduler's split points (schedule/schedule.cc, rule 5): subtree measures over a kernel's
// tape, and the nodes chosen to materialize.
#include "schedule/split.h"

#include "base/errors.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <utility>

namespace vka {
namespace {

// The set bits of a word, in registers: the builtin calls a table-driven library routine where
// the target may lack a population-count instruction (the baseline x86-64), and this loop
// runs once per word of every entry's set.
int bits_set(uint64_t x) {
  x = x - ((x >> 1) & 0x5555555555555555ull);
  x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
  x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
  return static_cast<int>((x * 0x0101010101010101ull) >> 56);
}

}  // namespace

std::vector<int> tape_subtree_sizes(const std::vector<TapeEntry>& tape,
                                    const std::unordered_map<const Node*, int>& tape_index,
                                    const std::vector<int>& weights) {
  constexpr std::size_t kMaxExact = 8192;
  const std::size_t n = tape.size();
  auto weight = [&weights](std::size_t i) { return weights.empty() ? 1 : weights[i]; };
  std::vector<int> sizes(n);
  if (n > kMaxExact) {
    int sum = 0;
    for (std::size_t i = 0; i < n; ++i) sizes[i] = sum += weight(i);
    return sizes;
  }
  std::vector<const Node*> at(n, nullptr);
  for (const auto& [node, i] : tape_index) at[i] = node;
  // The tape positions of each entry's inputs in this kernel (none for buffer entries).
  std::vector<std::vector<std::size_t>> ins(n);
  for (std::size_t i = 0; i < n; ++i) {
    if (at[i] == nullptr || tape[i].op == Op::kBuffer) continue;
    for (const NodePtr& in : at[i]->inputs()) {
      auto it = tape_index.find(in.get());
      if (it != tape_index.end()) ins[i].push_back(static_cast<std::size_t>(it->second));
    }
  }
  // Inputs before users (a gather's operands need not precede it in the tape).
  std::vector<std::size_t> order;
  std::vector<char> state(n, 0);  // 0 new, 1 on the stack, 2 done
  for (std::size_t r = 0; r < n; ++r) {
    if (state[r]) continue;
    std::vector<std::pair<std::size_t, std::size_t>> stack{{r, 0}};
    state[r] = 1;
    while (!stack.empty()) {
      auto& [x, next] = stack.back();
      if (next < ins[x].size()) {
        const std::size_t y = ins[x][next++];
        if (!state[y]) {
          state[y] = 1;
          stack.push_back({y, 0});
        }
        continue;
      }
      state[x] = 2;
      order.push_back(x);
      stack.pop_back();
    }
  }
  // A tree (no entry read twice, as in a running sum): subtrees are disjoint, and a measure is
  // its entry's weight plus its inputs' measures.
  std::vector<int> uses(n, 0);
  bool tree = true;
  for (std::size_t i = 0; i < n && tree; ++i) {
    for (std::size_t k : ins[i]) tree = tree && ++uses[k] == 1;
  }
  if (tree) {
    for (std::size_t i : order) {
      sizes[i] = weight(i);
      for (std::size_t k : ins[i]) sizes[i] += sizes[k];
    }
    return sizes;
  }
  const std::size_t words = (n + 63) / 64;
  // The positions of each weight (the measure sums popcounts per weight).
  std::map<int, std::vector<uint64_t>> of_weight;
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<uint64_t>& mask = of_weight[weight(i)];
    mask.resize(words, 0);
    mask[i / 64] |= uint64_t{1} << (i % 64);
  }
  std::vector<uint64_t> bits(n * words, 0);
  for (std::size_t i : order) {
    uint64_t* row = &bits[i * words];
    row[i / 64] |= uint64_t{1} << (i % 64);
    for (std::size_t k : ins[i]) {
      for (std::size_t w = 0; w < words; ++w) row[w] |= bits[k * words + w];
    }
    int measure = 0;
    for (const auto& [wt, mask] : of_weight) {
      if (wt == 0) continue;
      int count = 0;
      for (std::size_t w = 0; w < words; ++w) count += bits_set(row[w] & mask[w]);
      measure += wt * count;
    }
    sizes[i] = measure;
  }
  return sizes;
}

std::vector<NodePtr> split_points(const std::vector<TapeEntry>& tape,
                                  const std::vector<NodePtr>& interior,
                                  const std::unordered_map<const Node*, int>& tape_index,
                                  const Limits& limits) {
  VKA_ASSERT(!interior.empty());
  const int n = static_cast<int>(tape.size());
  // The measure of the limit exceeded: entries, or transcendental weight; per entry, that
  // of its subtree in this kernel (a running sum's subtree holds every term before it).
  const bool by_weight = n <= limits.max_tape;
  std::vector<int> weights;
  int total = n;
  if (by_weight) {
    total = 0;
    for (const TapeEntry& e : tape) total += weights.emplace_back(transcendental_weight(e));
  }
  const std::vector<int> sizes = tape_subtree_sizes(tape, tape_index, weights);
  const int limit = by_weight ? limits.max_transcendental : limits.max_tape;
  std::vector<NodePtr> cuts;
  if (total > 2 * limit) {
    // A long tape (a chain of many operations) is cut every 3/4 of the limit at once: one
    // cut per round would rebuild the kernel once per cut, quadratic in its length. Each cut
    // is a node whose subtree holds the next 3/4 of the limit, so a chain is cut along its
    // spine, not at the small terms that hang off it.
    const int step = std::max(1, limit * 3 / 4);
    std::vector<std::pair<int, NodePtr>> by_position;
    for (const NodePtr& c : interior) by_position.push_back({tape_index.at(c.get()), c});
    std::sort(by_position.begin(), by_position.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    int next = step;
    for (const auto& [position, c] : by_position) {
      const int measure = sizes[position];
      if (measure < next || measure > total - step / 2) continue;
      cuts.push_back(c);
      next = measure + step;
    }
    if (!cuts.empty()) return cuts;
  }
  // One cut: the node whose subtree is closest to half the kernel.
  const int half = total / 2;
  NodePtr best;
  int best_score = INT32_MAX;
  for (const NodePtr& c : interior) {
    int score = std::abs(sizes[tape_index.at(c.get())] - half);
    if (score < best_score) {
      best_score = score;
      best = c;
    }
  }
  return {best};
}

}  // namespace vka
