//===- RelayInterfaces.td - operator property interfaces ---*- tablegen -*-===//
//
// The operator extension points (cf. the attribute table of RAF paper
// §3.2.1, Fig. 5): everything a pass needs to know about an operator lives
// with the operator. Fusion kind, AutoCast category and cost
// facts are implemented by every relay operator; the gradient rule and the
// tensor-expression form are declared here and attached by the passes that
// need them (automatic differentiation, dataflow embedding).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYINTERFACES_TD
#define RAF_DIALECT_RELAY_IR_RELAYINTERFACES_TD

include "mlir/IR/OpBase.td"

def Relay_FusionOpInterface : OpInterface<"FusionOpInterface"> {
  let cppNamespace = "::raf::relay";
  let description = [{
    The fusion kind of an operator (TVM's OpPatternKind), read by rule-based
    fusion and by AutoCast's cast-sharing rule.
  }];
  let methods = [
    StaticInterfaceMethod<"Fusion kind of the operator.",
      "::raf::relay::FusionKind", "getFusionKind">
  ];
}

def Relay_AutoCastOpInterface : OpInterface<"AutoCastOpInterface"> {
  let cppNamespace = "::raf::relay";
  let description = [{
    How automatic mixed precision treats the operator: its category and the
    number of leading arguments the category's rule applies to.
  }];
  let methods = [
    StaticInterfaceMethod<"AutoCast category of the operator.",
      "::raf::relay::AutoCastCategory", "getAutoCastCategory">,
    StaticInterfaceMethod<
      "Number of leading arguments the category applies to.",
      "unsigned", "getAutoCastArgCount">
  ];
}

def Relay_CostOpInterface : OpInterface<"CostOpInterface"> {
  let cppNamespace = "::raf::relay";
  let description = [{
    Cost facts used by memory passes, rematerialisation and reports:
    floating-point operations, bytes read and written, and whether the
    operator may be recomputed instead of kept alive.
  }];
  let methods = [
    InterfaceMethod<[{
        Floating-point operations (a multiply-add counts as two) of one
        execution. Defaults to one per output element.
      }], "int64_t", "getFlops", (ins), [{}], [{
        return ::raf::relay::detail::countResultElements($_op);
      }]>,
    InterfaceMethod<"Bytes of every tensor operand read.",
      "int64_t", "getBytesRead", (ins), [{}], [{
        return ::raf::relay::detail::sumTypeBytes($_op->getOperandTypes());
      }]>,
    InterfaceMethod<"Bytes of every tensor result written.",
      "int64_t", "getBytesWritten", (ins), [{}], [{
        return ::raf::relay::detail::sumTypeBytes($_op->getResultTypes());
      }]>,
    InterfaceMethod<[{
        Whether recomputing the operator reproduces its results exactly, so
        rematerialisation may evict them.
      }], "bool", "isRecomputable", (ins), [{}], [{ return true; }]>
  ];
}

def Relay_GradientOpInterface : OpInterface<"GradientOpInterface"> {
  let cppNamespace = "::raf::relay";
  let description = [{
    The adjoint (gradient rule) of a differentiable operator: given the
    gradients of its results, build the gradients of its operands at the
    builder's insertion point. A null entry in `operandGradients` means the
    operand receives no gradient. Operators without this interface are not
    differentiable; `--raf-autodiff` reports them by name.
  }];
  let methods = [
    InterfaceMethod<"Builds the operand gradients from the result gradients.",
      "::llvm::LogicalResult", "buildAdjoint",
      (ins "::mlir::OpBuilder &":$builder,
           "::mlir::ValueRange":$resultGradients,
           "::llvm::SmallVectorImpl<::mlir::Value> &":$operandGradients)>
  ];
}

#endif // RAF_DIALECT_RELAY_IR_RELAYINTERFACES_TD
