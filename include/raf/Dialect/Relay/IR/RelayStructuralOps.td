//===- RelayStructuralOps.td - Relay language constructs ---*- tablegen -*-===//
//
// Constants, tuples, conditionals, closures, calls, references, zero and
// grad: the functional constructs of the Relay paper (Fig. 3 and Fig. 6).
//
//===----------------------------------------------------------------------===//

#ifndef RAF_DIALECT_RELAY_IR_RELAYSTRUCTURALOPS_TD
#define RAF_DIALECT_RELAY_IR_RELAYSTRUCTURALOPS_TD

include "raf/Dialect/Relay/IR/RelayOpBase.td"

def Relay_ConstantOp : Relay_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "tensor literal";
  let description = [{
    A tensor literal (TYPE-INT-LITERAL, TYPE-FLOAT-LITERAL,
    TYPE-BOOL-LITERAL, TYPE-TENSOR-LITERAL).

    ```mlir
    %c = relay.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

def Relay_TupleOp : Relay_Op<"tuple", [Pure, InferTypeOpAdaptor]> {
  let summary = "tuple construction";
  let description = [{
    Builds a tuple of its operands (TYPE-PRODUCT); `relay.tuple()` is the
    unit value `tuple<>`.

    ```mlir
    %t = relay.tuple(%a, %b) : tensor<2xf32>, tensor<i32>
    ```
  }];
  let arguments = (ins Variadic<Relay_AnyValueType>:$fields);
  let results = (outs AnyTuple:$result);
  let assemblyFormat = "`(` $fields `)` attr-dict (`:` type($fields)^)?";
}

def Relay_TupleGetOp : Relay_Op<"tuple_get", [Pure, InferTypeOpAdaptor]> {
  let summary = "tuple projection";
  let description = [{
    Projects field `index` (0-based) out of a tuple (TYPE-PROJECTION; the
    paper's `i ∈ [0, n]` is off by one, the valid range is `0 <= i < n`).

    ```mlir
    %x = relay.tuple_get %t[1] : tuple<tensor<2xf32>, tensor<i32>>
    ```
  }];
  let arguments = (ins AnyTuple:$tuple, I64Attr:$index);
  let results = (outs Relay_AnyValueType:$result);
  let assemblyFormat = "$tuple `[` $index `]` attr-dict `:` type($tuple)";
  let hasFolder = 1;
}

def Relay_IfOp : Relay_Op<"if", [
    DeclareOpInterfaceMethods<RegionBranchOpInterface>,
    RecursiveMemoryEffects, NoRegionArguments]> {
  let summary = "conditional expression";
  let description = [{
    `if c then b1 else b2` (TYPE-IF): the condition is a rank-0 `tensor<i1>`;
    each region ends in `relay.yield` with values of the result types.

    ```mlir
    %r = relay.if %c : tensor<i1> -> (tensor<f32>) {
      relay.yield %a : tensor<f32>
    } else {
      relay.yield %b : tensor<f32>
    }
    ```
  }];
  let arguments = (ins AnyRankedTensor:$condition);
  let results = (outs Variadic<Relay_AnyValueType>:$results);
  let regions = (region SizedRegion<1>:$thenRegion,
                        SizedRegion<1>:$elseRegion);
  let assemblyFormat = [{
    $condition `:` type($condition) (`->` `(` type($results)^ `)`)?
    $thenRegion `else` $elseRegion attr-dict
  }];
  let hasVerifier = 1;
}

def Relay_YieldOp : Relay_Op<"yield", [Pure, Terminator, ReturnLike,
                                       HasParent<"IfOp">]> {
  let summary = "yields the values of a relay.if branch";
  let description = [{
    The terminator of both regions of a `relay.if`: its operands are the
    values of the branch taken and must match the result types of the
    `relay.if`.
  }];
  let arguments = (ins Variadic<Relay_AnyValueType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def Relay_FnOp : Relay_Op<"fn", [Pure]> {
  let summary = "closure (local function)";
  let description = [{
    A local function value (TYPE-FUNCTION-DEFINITION). The body may use
    values defined outside it: those are the closure's captured free
    variables. The result is a value of builtin function type; call it with
    `relay.call`. The unit attribute `primitive` marks a closure that is one
    fused kernel (TVM's `Primitive` function attribute); other annotations
    must be dialect-prefixed (e.g. `relay.backend`).

    ```mlir
    %f = relay.fn(%x: tensor<4xf32>) -> tensor<4xf32> {
      %y = relay.add %x, %captured : (tensor<4xf32>, tensor<4xf32>)
      relay.return %y : tensor<4xf32>
    }
    ```
  }];
  // Declared so KnownAttributesOnly accepts it and passes can query it.
  let arguments = (ins UnitAttr:$primitive);
  let results = (outs FunctionType:$result);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::mlir::FunctionType getFunctionType() {
      return ::llvm::cast<::mlir::FunctionType>(getResult().getType());
    }
  }];
}

def Relay_ReturnOp : Relay_Op<"return", [Pure, Terminator, ReturnLike,
                                         HasParent<"FnOp">]> {
  let summary = "returns from a relay.fn closure";
  let description = [{
    The terminator of a `relay.fn` body: its operands are the closure's
    results and must match the result types of the `relay.fn`.
  }];
  let arguments = (ins Variadic<Relay_AnyValueType>:$values);
  let assemblyFormat = "attr-dict ($values^ `:` type($values))?";
}

def Relay_CallOp : Relay_Op<"call"> {
  let summary = "calls a closure value";
  let description = [{
    Calls a value of function type (TYPE-CALL). The trailing type is the
    callee's type. Calling may run effects of the closure body, so the op is
    not pure. Module functions are called with `func.call`.

    ```mlir
    %r = relay.call %f(%a) : (tensor<4xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins FunctionType:$callee,
                       Variadic<Relay_AnyValueType>:$args);
  let results = (outs Variadic<Relay_AnyValueType>:$results);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def Relay_GlobalRefOp : Relay_Op<"global_ref",
    [Pure, DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "closure value of a module function";
  let description = [{
    Turns the module-level `func.func` named by `callee` into a first-class
    function value, e.g. to pass it to a higher-order function or `relay.grad`.

    ```mlir
    %f = relay.global_ref @square : (tensor<f32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee);
  let results = (outs FunctionType:$result);
  let assemblyFormat = "$callee attr-dict `:` type($result)";
}

def Relay_RefNewOp : Relay_Op<"ref_new", [InferTypeOpAdaptor,
    MemoryEffects<[MemAlloc<Relay_RefResource>,
                   MemWrite<Relay_RefResource>]>]> {
  let summary = "allocates a reference cell";
  let description = [{
    `Ref v` (TYPE-REF): a fresh mutable cell holding `v`.

    ```mlir
    %r = relay.ref_new %v : tensor<f32>
    ```
  }];
  let arguments = (ins Relay_AnyValueType:$value);
  let results = (outs Relay_RefType:$ref);
  let assemblyFormat = "$value attr-dict `:` type($value)";
}

def Relay_RefReadOp : Relay_Op<"ref_read", [InferTypeOpAdaptor,
    MemoryEffects<[MemRead<Relay_RefResource>]>]> {
  let summary = "reads a reference cell";
  let description = [{
    `!r` (TYPE-VAL-REF).

    ```mlir
    %v = relay.ref_read %r : !relay.ref<tensor<f32>>
    ```
  }];
  let arguments = (ins Relay_RefType:$ref);
  let results = (outs Relay_AnyValueType:$value);
  let assemblyFormat = "$ref attr-dict `:` qualified(type($ref))";
}

def Relay_RefWriteOp : Relay_Op<"ref_write", [
    MemoryEffects<[MemWrite<Relay_RefResource>]>,
    TypesMatchWith<"value type matches the reference's content type",
                   "ref", "value",
                   "::llvm::cast<::raf::relay::RefType>($_self).getValueType()">]> {
  let summary = "updates a reference cell";
  let description = [{
    `r := v` (TYPE-SET-REF). The paper types the assignment `()`; the op has
    no result.

    ```mlir
    relay.ref_write %r, %v : !relay.ref<tensor<f32>>
    ```
  }];
  let arguments = (ins Relay_RefType:$ref, Relay_AnyValueType:$value);
  let assemblyFormat = "$ref `,` $value attr-dict `:` qualified(type($ref))";
}

def Relay_ZeroOp : Relay_Op<"zero", [Pure]> {
  let summary = "zero value of a type";
  let description = [{
    `Zero T` (TYPE-ZERO): zeros of a tensor type, or a tuple of zeros for a
    tuple type (nested tuples allowed).

    ```mlir
    %z = relay.zero : tuple<tensor<2xf32>, tensor<i32>>
    ```
  }];
  let results = (outs Relay_AnyValueType:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Relay_GradOp : Relay_Op<"grad", [Pure, InferTypeOpAdaptor]> {
  let summary = "higher-order reverse-mode gradient of a function";
  let description = [{
    `Grad f` (TYPE-GRADIENT). For `f : (T1, ..., Tn) -> R`, the result has
    type `(T1, ..., Tn) -> tuple<R, tuple<T1, ..., Tn>>`: the original result
    bundled with the partial derivatives of every argument. Every `Ti` and
    `R` must be a floating-point tensor. `--relay-lower-grad` turns it into
    code with adjoint references and a backpropagator chain.

    ```mlir
    %g = relay.grad %f : (tensor<f32>) -> tensor<f32>
    ```
  }];
  let arguments = (ins FunctionType:$fn);
  let results = (outs FunctionType:$result);
  let assemblyFormat = "$fn attr-dict `:` type($fn)";
}

#endif // RAF_DIALECT_RELAY_IR_RELAYSTRUCTURALOPS_TD
