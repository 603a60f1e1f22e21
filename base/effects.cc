// The process-wide effect count (base/effects.h).
#include "base/effects.h"

#include <atomic>

namespace vka {
namespace {

std::atomic<uint64_t> effects{0};

}  // namespace

uint64_t effect_count() { return effects.load(std::memory_order_relaxed); }

void note_effect() { effects.fetch_add(1, std::memory_order_relaxed); }

}  // namespace vka
