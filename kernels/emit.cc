// The emitter of each kernel kind (kernels/emit.h): one exhaustive switch, one line a family.
#include "kernels/emit.h"

#include "kernels/lib/counting.h"
#include "kernels/lib/cumulative.h"
#include "kernels/lib/linalg.h"
#include "kernels/lib/random_draw.h"
#include "kernels/lib/scan.h"
#include "kernels/lib/sort.h"

namespace vka {

std::string emit(const KernelSpec& spec, const EmitOptions& options) {
  switch (spec.kind) {
    case KernelKind::kElementwise:
    case KernelKind::kReduce:
    case KernelKind::kGemm:
      return emit_elementwise(spec, options);
    case KernelKind::kScanBlocks:
    case KernelKind::kScanAdd:
    case KernelKind::kCompact:
    case KernelKind::kScatterClaim:
    case KernelKind::kScatterWrite:
    case KernelKind::kSearchSorted:
      return emit_scan(spec);
    case KernelKind::kSortKeys:
    case KernelKind::kSortHistogram:
    case KernelKind::kSortScatter:
    case KernelKind::kSortOffsets:
    case KernelKind::kSegmentSum:
      return emit_sort(spec, options);
    case KernelKind::kBincount:
      return emit_bincount(spec);
    case KernelKind::kCumulativeReduce:
    case KernelKind::kCumulativeRows:
    case KernelKind::kCumulativeLines:
      return emit_cumulative(spec);
    case KernelKind::kLuFactor:
    case KernelKind::kLuSolve:
    case KernelKind::kLuPanel:
    case KernelKind::kLuChunks:
    case KernelKind::kCholesky:
    case KernelKind::kQr:
    case KernelKind::kSvdJacobi:
    case KernelKind::kEighJacobi:
    case KernelKind::kSvdJacobiWide:
    case KernelKind::kEighJacobiWide:
      return emit_linalg(spec, options);
    case KernelKind::kRandomGamma:
    case KernelKind::kRandomPoisson:
    case KernelKind::kRandomBinomial:
    case KernelKind::kRandomHypergeometric:
    case KernelKind::kRandomZipf:
    case KernelKind::kRandomVonmises:
    case KernelKind::kRandomLogseries:
      return emit_random_draw(spec);
  }
  return {};  // unreachable: the switch names every kind (-Werror=switch)
}

}  // namespace vka
