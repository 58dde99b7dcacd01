//===- Passes.td - RAF passes on upstream dialects ---------*- tablegen -*-===//

#ifndef RAF_TRANSFORMS_PASSES_TD
#define RAF_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def RAFTileAndVectorize : Pass<"raf-tile-and-vectorize", "mlir::func::FuncOp"> {
  let summary = "Tile and vectorise matrix products and convolutions";
  let description = [{
    The compute-heavy part of `--raf-cpu-pipeline`, on linalg ops on
    tensors. Convolutions in NCHW/FCHW and NHWC/HWCF form are rewritten as
    an im2col copy plus a contraction; every contraction (matmul,
    batch_matmul, dense, the im2col products) is tiled to a register block
    of `tile-m` x `tile-n` with the reduction innermost, and each tile is
    vectorised, so the innermost loop is a chain of vector FMAs whose
    accumulators stay in registers. An output the block does not divide is
    split first (e.g. 196 columns = 192 in blocks of 32 + a block of 4), so
    every tile has a static shape and vectorises without masks. Dynamic
    shapes, depthwise and grouped convolutions and pooling are left to
    scalar loops.
  }];
  let options = [
    Option<"tileM", "tile-m", "int64_t", /*default=*/"8",
           "Rows of the register block (output channels / matrix rows)">,
    Option<"tileN", "tile-n", "int64_t", /*default=*/"32",
           "Columns of the register block (the contiguous output dimension)">,
    Option<"im2col", "im2col", "bool", /*default=*/"true",
           "Rewrite convolutions as im2col + contraction first">
  ];
  let dependentDialects = [
    "mlir::arith::ArithDialect", "mlir::linalg::LinalgDialect",
    "mlir::scf::SCFDialect", "mlir::tensor::TensorDialect",
    "mlir::vector::VectorDialect"
  ];
}

def RAFEmitCInterface : Pass<"raf-emit-c-interface", "mlir::ModuleOp"> {
  let summary = "Request a C interface wrapper for every public function";
  let description = [{
    Sets `llvm.emit_c_interface` on every public `func.func`, so that
    `--convert-func-to-llvm` emits `_mlir_ciface_<name>`, which takes each
    memref as a pointer to its descriptor. raf-run calls compiled functions
    through it.
  }];
}

#endif // RAF_TRANSFORMS_PASSES_TD
