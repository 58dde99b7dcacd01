//===- Passes.td - tcg passes ------------------------------*- tablegen -*-===//

#ifndef RAF_DIALECT_TCG_TRANSFORMS_PASSES_TD
#define RAF_DIALECT_TCG_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def TCGPrintTensorExprs : Pass<"tcg-print-tensor-exprs", "mlir::ModuleOp"> {
  let summary = "Print the tensor expression of every tcg.kernel";
  let description = [{
    Extracts the tensor expression the dataflow embedding reads
    (`raf::tcg::extractTensorExpr`) from every `tcg.kernel` of the module and
    prints it to stdout, in module order, in the form below. A kernel that
    has no tensor expression (a sequence of computations, a reduction
    combined with other values, nested reductions of different kinds) gets
    a located error and the pass fails. The module is not changed.

    ```
    $ raf-opt --tcg-print-tensor-exprs conv.mlir -o /dev/null
    conv2d: out[n, oc, oh, ow] = add_{ic, kh, kw} (data[n, ic, oh + kh, ow + kw] * weight[oc, ic, kh, kw])
      n: [0, 1) gemm x
      ...
    ```
  }];
}

def TCGPrintIntrinsics : Pass<"tcg-print-intrinsics", "mlir::ModuleOp"> {
  let summary = "Print the intrinsic library";
  let description = [{
    Prints the intrinsic library (VTA GEMM 1x16x16 and 8x8x8, GEMV 16x16,
    dot 16; `raf::tcg::lookupIntrinsic`) to stdout as a module, each
    function preceded by its tensor expression as a comment, so the output
    is itself valid input. `names` selects intrinsics; an unknown name is an
    error that lists the known ones. The input module is not read or
    changed.

    ```
    raf-opt --tcg-print-intrinsics=names=vta.gemm.1x16x16 /dev/null -o /dev/null
    ```
  }];
  let options = [
    ListOption<"names", "names", "std::string",
               "Intrinsics to print (default: all)">
  ];
  let dependentDialects = ["mlir::func::FuncDialect", "raf::tcg::TCGDialect"];
}

#endif // RAF_DIALECT_TCG_TRANSFORMS_PASSES_TD
