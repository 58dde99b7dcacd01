//===- RelayTypes.td - relay dialect types -----------------*- tablegen -*-===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYTYPES_TD
#define RAF_DIALECT_RELAY_IR_RELAYTYPES_TD

include "mlir/IR/AttrTypeBase.td"
include "raf/Dialect/Relay/IR/RelayDialect.td"

class Relay_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<Relay_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def Relay_RefType : Relay_Type<"Ref", "ref"> {
  let summary = "mutable reference cell holding a value of type T";
  let description = [{
    `!relay.ref<T>` is Relay's `RefType(T)` (typing rules TYPE-REF,
    TYPE-VAL-REF, TYPE-SET-REF). Reference cells are created by
    `relay.ref_new`, read by `relay.ref_read` and updated by `relay.ref_write`;
    the higher-order reverse-mode transformation uses them for adjoints.
  }];
  let parameters = (ins "::mlir::Type":$valueType);
  let assemblyFormat = "`<` $valueType `>`";
}

// Types Relay values may have: tensors, tuples of values, closures and
// references.
def Relay_AnyValueType : AnyTypeOf<[AnyRankedTensor, AnyTuple, FunctionType,
                                    Relay_RefType]>;

#endif // RAF_DIALECT_RELAY_IR_RELAYTYPES_TD
