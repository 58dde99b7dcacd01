//===- RelayAttrs.td - relay dialect attributes ------------*- tablegen -*-===//
//
// Typed operator attributes: the fixed-set attributes of TVM Relay's
// operators as EnumAttrs, and tensor layouts as `#relay.layout`.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYATTRS_TD
#define RAF_DIALECT_RELAY_IR_RELAYATTRS_TD

include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "raf/Dialect/Relay/IR/RelayDialect.td"
include "raf/Dialect/Relay/IR/RelayEnums.td"

// `#relay.<mnemonic><case>`, e.g. `#relay.pad_mode<reflect>`.
class Relay_EnumAttr<EnumAttrInfo enumInfo, string attrMnemonic>
    : EnumAttr<Relay_Dialect, enumInfo, attrMnemonic> {
  let assemblyFormat = "`<` $value `>`";
}

def Relay_PadModeAttr : Relay_EnumAttr<Relay_PadMode, "pad_mode">;
def Relay_LossReductionAttr : Relay_EnumAttr<Relay_LossReduction,
                                             "loss_reduction">;
def Relay_TakeModeAttr : Relay_EnumAttr<Relay_TakeMode, "take_mode">;
def Relay_GeluApproximationAttr : Relay_EnumAttr<Relay_GeluApproximation,
                                                 "gelu_approximation">;

def Relay_LayoutAttr : AttrDef<Relay_Dialect, "Layout"> {
  let mnemonic = "layout";
  let summary = "a 4-D tensor layout: a permutation of NCHW or of OIHW";
  let description = [{
    The order of a 4-D tensor's dimensions, outermost first, as TVM Relay's
    layout strings: a data layout is a permutation of `NCHW` (batch,
    channels, height, width), a kernel layout a permutation of `OIHW`
    (output channels, input channels, height, width). Which of the two an
    attribute must be is up to the operator (`nn.conv2d` takes a data and a
    kernel layout).

    ```mlir
    %y = relay.nn.conv2d %x, %w {data_layout = #relay.layout<NHWC>,
                                 kernel_layout = #relay.layout<HWIO>} : ...
    ```
  }];
  let parameters = (ins StringRefParameter<"dimension letters">:$name);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  // Lets `DefaultValuedAttr<Relay_LayoutAttr, "\"NCHW\"">` build defaults.
  let constBuilderCall = "::raf::relay::LayoutAttr::get($_builder.getContext(), $0)";
  let extraClassDeclaration = [{
    /// Whether `name` is a permutation of "NCHW" or of "OIHW".
    static bool isValidName(::llvm::StringRef name);
    /// Position of dimension `dim` ('N', 'C', 'O', ...) in the layout, or
    /// -1 if the layout has no such dimension.
    int64_t getPosition(char dim) const;
    /// Whether the layout is a permutation of `canonical` ("NCHW", "OIHW").
    bool isPermutationOf(::llvm::StringRef canonical) const;
    /// For each dimension of `canonical`, its position in this layout;
    /// std::nullopt if the layout is not a permutation of `canonical`.
    std::optional<std::array<int64_t, 4>>
    getPositions(::llvm::StringRef canonical) const;
  }];
}

// A layout operand attribute defaulting to `canonical` (e.g. "NCHW").
class Relay_DefaultLayout<string canonical>
    : DefaultValuedAttr<Relay_LayoutAttr, "\"" # canonical # "\"">;

#endif // RAF_DIALECT_RELAY_IR_RELAYATTRS_TD
