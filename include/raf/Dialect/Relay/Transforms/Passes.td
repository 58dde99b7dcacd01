//===- Passes.td - relay dialect passes --------------------*- tablegen -*-===//

#ifndef RAF_DIALECT_RELAY_TRANSFORMS_PASSES_TD
#define RAF_DIALECT_RELAY_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RelayPrintOpProperties : Pass<"relay-print-op-properties"> {
  let summary = "Report the property interfaces of every relay operator";
  let description = [{
    Emits one remark per relay operator with the facts its op interfaces
    provide: fusion kind, AutoCast category and argument count, FLOPs, bytes
    read and written, and whether it is recomputable. With `totals`, also a
    remark on every `func.func` summing FLOPs and bytes. The IR is unchanged.

    ```
    raf-opt --relay-print-op-properties model.mlir
    ```
  }];
  let options = [
    Option<"totals", "totals", "bool", /*default=*/"false",
           "Also report per-function totals">
  ];
}

#endif // RAF_DIALECT_RELAY_TRANSFORMS_PASSES_TD
