//===- RelayAttrs.cpp - relay dialect attributes --------------------------===//

#include "raf/Dialect/Relay/IR/RelayAttrs.h"

#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/STLExtras.h"

using namespace mlir;
using namespace raf::relay;

//===----------------------------------------------------------------------===//
// LayoutAttr
//===----------------------------------------------------------------------===//

bool LayoutAttr::isValidName(StringRef name) {
  // TVM's blocked layouts (`NCHW16c`) are not modelled: only the
  // permutations of the plain data and kernel layouts.
  auto isPermutation = [&](StringRef canonical) {
    return name.size() == canonical.size() &&
           llvm::all_of(canonical,
                        [&](char dim) { return name.count(dim) == 1; });
  };
  return isPermutation("NCHW") || isPermutation("OIHW");
}

LogicalResult
LayoutAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                   StringRef name) {
  if (isValidName(name))
    return success();
  return emitError() << "layout \"" << name
                     << "\" is not a permutation of \"NCHW\" or \"OIHW\"";
}

Attribute LayoutAttr::parse(AsmParser &parser, Type) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef name;
  if (parser.parseLess() || parser.parseKeyword(&name) ||
      parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); },
                    parser.getContext(), name);
}

void LayoutAttr::print(AsmPrinter &printer) const {
  printer << '<' << getName() << '>';
}

int64_t LayoutAttr::getPosition(char dim) const {
  size_t pos = getName().find(dim);
  return pos == StringRef::npos ? -1 : static_cast<int64_t>(pos);
}

bool LayoutAttr::isPermutationOf(StringRef canonical) const {
  return getPositions(canonical).has_value();
}

std::optional<std::array<int64_t, 4>>
LayoutAttr::getPositions(StringRef canonical) const {
  if (canonical.size() != 4 || getName().size() != 4)
    return std::nullopt;
  std::array<int64_t, 4> positions;
  for (size_t i = 0; i < 4; ++i) {
    positions[i] = getPosition(canonical[i]);
    if (positions[i] < 0)
      return std::nullopt;
  }
  return positions;
}
