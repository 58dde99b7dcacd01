//===- RelayOpBase.td - base classes of relay ops ----------*- tablegen -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYOPBASE_TD
#define RAF_DIALECT_RELAY_IR_RELAYOPBASE_TD

include "mlir/IR/OpBase.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/SymbolInterfaces.td"
include "raf/Dialect/Relay/IR/RelayDialect.td"
include "raf/Dialect/Relay/IR/RelayEnums.td"
include "raf/Dialect/Relay/IR/RelayInterfaces.td"
include "raf/Dialect/Relay/IR/RelayTypes.td"

// The state reference cells live in; relay.ref_* effects act on it.
def Relay_RefResource : Resource<"::raf::relay::RefResource">;

// Rejects attributes the op does not declare (a misspelt `stride` must not
// be silently ignored). Dialect-prefixed attributes (`relay.backend`) pass.
def Relay_KnownAttributesOnly : NativeOpTrait<"KnownAttributesOnly"> {
  let cppNamespace = "::raf::relay";
}

class Relay_Op<string mnemonic, list<Trait> traits = []>
    : Op<Relay_Dialect, mnemonic, !listconcat(traits, [Relay_KnownAttributesOnly])>;

// A tensor operator: pure, result types inferred from operands and
// attributes, and carrying the operator property interfaces.
//
// Textual form: `relay.<name> %a, %b {attrs} : (A, B) -> R`. The `-> R` part
// may be omitted when parsing; it is inferred and always printed.
//
// `fusion` is a FusionKind case, `cast` an AutoCastCategory case and
// `castArgs` the number of leading arguments the AutoCast rule applies to.
// `inferBody` is the body of
//   inferResultTypes(context, location, adaptor, inferredReturnTypes);
// when empty, the op defines inferResultTypes in C++.
class Relay_Operator<string mnemonic, string fusion, string cast, int castArgs,
                     list<Trait> traits = []>
    : Relay_Op<mnemonic, !listconcat(traits, [
        Pure, InferTypeOpAdaptor, Relay_FusionOpInterface,
        Relay_AutoCastOpInterface, Relay_CostOpInterface])> {
  code inferBody = [{}];
  // The operands among the arguments (those that are not attributes), how
  // many of them are not variadic, and whether one is: the parser checks
  // the count before the shape function reads operands by position.
  list<int> operandIndices = !filter(i, !range(!size(arguments)),
      !not(!initialized(!getdagarg<Attr>(arguments, i))));
  int numFixedOperands = !foldl(0, operandIndices, n, i,
      !add(n, !if(!isa<Variadic>(!getdagarg<TypeConstraint>(arguments, i)),
                  0, 1)));
  bit hasVariadicOperands = !foldl(0, operandIndices, v, i,
      !or(v, !isa<Variadic>(!getdagarg<TypeConstraint>(arguments, i))));
  code operatorDecls = [{
    static ::raf::relay::FusionKind getFusionKind() {
      return ::raf::relay::FusionKind::}] # fusion # [{;
    }
    static ::raf::relay::AutoCastCategory getAutoCastCategory() {
      return ::raf::relay::AutoCastCategory::}] # cast # [{;
    }
    static unsigned getAutoCastArgCount() { return }] # castArgs # [{; }
    /// The operator's shape function, called once attributes and operand
    /// kinds are known to be well formed.
    static ::llvm::LogicalResult inferResultTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes);
  }];
  let extraClassDeclaration = operatorDecls;
  let hasCustomAssemblyFormat = 1;
  // Inference runs while parsing, before the verifier: check attribute kinds
  // (adaptor.verify) and that operands are ranked tensors first, so a
  // malformed attribute is a diagnostic and never a bad cast.
  let extraClassDefinition = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return ::raf::relay::parseOperator(parser, result,
                                         &$cppClass::inferReturnTypes,
                                         }] # numFixedOperands # [{,
                                         }] # !if(hasVariadicOperands,
                                                  "true", "false") # [{);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &printer) {
      ::raf::relay::printOperator(printer, getOperation());
    }
    ::llvm::LogicalResult $cppClass::inferReturnTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
      // Attributes left at their default may be absent (e.g. while parsing
      // or building); the shape function sees them filled in.
      ::mlir::NamedAttrList attributes(adaptor.getAttributes());
      populateDefaultAttrs(::mlir::OperationName(getOperationName(), context),
                           attributes);
      Adaptor complete(adaptor.getOperands(),
                       attributes.getDictionary(context), {},
                       ::mlir::RegionRange());
      if (::mlir::failed(complete.verify(
              location ? *location : ::mlir::UnknownLoc::get(context))) ||
          ::mlir::failed(::raf::relay::verifyRankedTensorOperands(
              location, getOperationName(), complete.getOperands())))
        return ::mlir::failure();
      // Shape functions do arithmetic on attribute values; an overflowing or
      // nonsensical attribute must end in a diagnostic, not an invalid type.
      if (::mlir::failed(inferResultTypes(context, location, complete,
                                          inferredReturnTypes)))
        return ::mlir::failure();
      return ::raf::relay::verifyInferredTypes(location, getOperationName(),
                                               inferredReturnTypes);
    }
  }] # !if(!empty(inferBody), "", [{
    ::llvm::LogicalResult $cppClass::inferResultTypes(
        ::mlir::MLIRContext *context, std::optional<::mlir::Location> location,
        Adaptor adaptor,
        ::llvm::SmallVectorImpl<::mlir::Type> &inferredReturnTypes) {
  }] # inferBody # [{
    }
  }]);
}

#endif // RAF_DIALECT_RELAY_IR_RELAYOPBASE_TD
