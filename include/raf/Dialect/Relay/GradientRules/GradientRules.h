//===- GradientRules.h - adjoints of the relay operators --------*- C++ -*-===//
//
// The gradient rule of every differentiable relay operator, attached to the
// operators as external models of GradientOpInterface. Operators left out
// (comparisons, argmax, zeros/ones, constants) are not differentiable:
// `--raf-autodiff` reports a gradient that would have to flow through them.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_GRADIENTRULES_GRADIENTRULES_H
#define RAF_DIALECT_RELAY_GRADIENTRULES_GRADIENTRULES_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace raf::relay {

/// Attaches the gradient rules to the relay operators when the relay dialect
/// is loaded (or right away if it already is, once the registry is appended
/// to a context). Passes that differentiate call this from
/// getDependentDialects, so a tool only needs it to query the interface
/// outside those passes.
void registerGradientRules(mlir::DialectRegistry &registry);

} // namespace raf::relay

#endif // RAF_DIALECT_RELAY_GRADIENTRULES_GRADIENTRULES_H
