//===- RelayDialect.cpp - relay dialect registration ----------------------===//

#include "raf/Dialect/Relay/IR/RelayDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Transforms/InliningUtils.h"
#include "raf/Dialect/Relay/IR/RelayAttrs.h"
#include "raf/Dialect/Relay/IR/RelayOps.h"
#include "raf/Dialect/Relay/IR/RelayTypes.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace raf::relay;

#include "raf/Dialect/Relay/IR/RelayDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "raf/Dialect/Relay/IR/RelayTypes.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "raf/Dialect/Relay/IR/RelayAttrs.cpp.inc"

#define GET_OP_CLASSES
#include "raf/Dialect/Relay/IR/RelayOps.cpp.inc"

namespace {

/// Relay operations are values-only (references are explicit ops with
/// effects), so a func.call of a function in the relay dialect can always be
/// replaced by the callee's body: the training pipeline inlines calls
/// before differentiating, so the CPU path sees straight-line code.
struct RelayInlinerInterface : public DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
  bool isLegalToInline(Region *, Region *, bool, IRMapping &) const final {
    return true;
  }
};

} // namespace

void RelayDialect::initialize() {
  addInterfaces<RelayInlinerInterface>();
  addOperations<
#define GET_OP_LIST
#include "raf/Dialect/Relay/IR/RelayOps.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "raf/Dialect/Relay/IR/RelayTypes.cpp.inc"
      >();
  addAttributes<
#define GET_ATTRDEF_LIST
#include "raf/Dialect/Relay/IR/RelayAttrs.cpp.inc"
      >();
}

Operation *RelayDialect::materializeConstant(OpBuilder &builder,
                                             Attribute value, Type type,
                                             Location loc) {
  auto elements = dyn_cast<ElementsAttr>(value);
  if (!elements || elements.getType() != type)
    return nullptr;
  return ConstantOp::create(builder, loc, type, elements);
}
