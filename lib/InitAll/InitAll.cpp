//===- InitAll.cpp - Register every RAF-MLIR dialect and pass -------------===//

#include "raf/InitAll.h"

#include "raf/Conversion/Passes.h"
#include "raf/Conversion/RelayToTCG/TensorExprModels.h"
#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/TCG/IR/TCGInterfaces.h"
#include "raf/Dialect/TCG/Transforms/Passes.h"
#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"
#include "raf/Pipelines/CPUPipeline.h"
#include "raf/Pipelines/GradPipeline.h"
#include "raf/Pipelines/TrainingPipeline.h"
#include "raf/Pipelines/VTAPipeline.h"
#include "raf/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Tosa/IR/TosaOps.h"
#include "mlir/IR/DialectRegistry.h"

void raf::registerAllDialects(mlir::DialectRegistry &registry) {
  registry.insert<relay::RelayDialect, tcg::TCGDialect, vta::VTADialect,
                  vta_isa::VTAISADialect>();
  // What relay modules are written in besides relay (func, arith, tensor
  // constants), what --convert-relay-to-linalg and the pipelines create,
  // and TOSA, the input of --convert-tosa-to-relay.
  registry.insert<mlir::arith::ArithDialect,
                  mlir::bufferization::BufferizationDialect,
                  mlir::func::FuncDialect, mlir::linalg::LinalgDialect,
                  mlir::math::MathDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect, mlir::tensor::TensorDialect,
                  mlir::tosa::TosaDialect>();
  registerCPUPipelineDialects(registry);
  // func.call inlining (--inline, used by --raf-training-pipeline).
  mlir::func::registerInlinerExtension(registry);
  // tcg::TensorExprOpInterface on relay's and linalg's convolutions and
  // matrix products (the embedding passes read them).
  relay::registerTensorExprModels(registry);
  tcg::registerLinalgTensorExprModels(registry);
}

void raf::registerAllPasses() {
  // The pass registry aborts on a name registered twice.
  static bool registered = [] {
    relay::registerRelayPasses();
    tcg::registerTCGPasses();
    registerRAFConversionPasses();
    registerRAFTransformsPasses();
    registerCPUPipeline();
    registerRelayGradPipeline();
    registerTrainingPipeline();
    registerVTAPipeline();
    return true;
  }();
  (void)registered;
}
