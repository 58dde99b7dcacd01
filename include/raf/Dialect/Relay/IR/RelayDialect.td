//===- RelayDialect.td - relay dialect definition ----------*- tablegen -*-===//
//
// The relay dialect: Relay's functional constructs and TVM Relay's operators
// on builtin tensor and tuple values.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYDIALECT_TD
#define RAF_DIALECT_RELAY_IR_RELAYDIALECT_TD

include "mlir/IR/OpBase.td"

def Relay_Dialect : Dialect {
  let name = "relay";
  let cppNamespace = "::raf::relay";
  let summary = "Functional, statically typed tensor IR for deep learning";
  let description = [{
    The `relay` dialect models the Relay language (Roesch et al., MAPL 2018)
    and the operator library of TVM Relay / RAF on MLIR's builtin types:

    * values are `tensor<...>` (scalars are rank-0 tensors), `tuple<...>`,
      closures typed by a builtin `FunctionType`, and `!relay.ref<T>`;
    * a block is in A-normal form: op order is execution order and the
      use-def graph is the dataflow view;
    * module-level functions are `func.func`, direct calls `func.call`.

    Every operator infers its result types (`InferTypeOpInterface`), so the
    `-> result` part of an operator's type signature may be omitted in the
    textual form and is printed back filled in. Non-tensor arguments are
    attributes; an attribute an operator does not know is an error unless
    its name is dialect-prefixed (e.g. `relay.backend`).
  }];
  let useDefaultTypePrinterParser = 1;
  let useDefaultAttributePrinterParser = 1;
  let hasConstantMaterializer = 1;
  // Attributes stay in the attribute dictionary: type inference then works
  // identically on parsed, built and generic-form operations.
  let usePropertiesForAttributes = 0;
  let dependentDialects = ["::mlir::func::FuncDialect"];
}

#endif // RAF_DIALECT_RELAY_IR_RELAYDIALECT_TD
