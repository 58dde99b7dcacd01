//===- CPUPipeline.cpp - relay to LLVM for the host CPU -------------------===//

#include "raf/Pipelines/CPUPipeline.h"
#include "raf/Pipelines/PipelineRegistration.h"

#include "raf/Conversion/Passes.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Transforms/ContractionsToBLAS.h"
#include "raf/Transforms/Passes.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/IndexToLLVM/IndexToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/OpenMPToLLVM/ConvertOpenMPToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToOpenMP/SCFToOpenMP.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Conversion/UBToLLVM/UBToLLVM.h"
#include "mlir/Conversion/VectorToLLVM/ConvertVectorToLLVMPass.h"
#include "mlir/Conversion/VectorToSCF/VectorToSCF.h"
#include "mlir/Dialect/Bufferization/Pipelines/Passes.h"
#include "mlir/Dialect/Bufferization/Transforms/Passes.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/Passes.h"
#include "mlir/Dialect/MemRef/Transforms/AllocationOpInterfaceImpl.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/Arith/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Bufferization/Transforms/FuncBufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/Extensions/InlinerExtension.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/Dialect/Linalg/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Linalg/Transforms/TilingInterfaceImpl.h"
#include "mlir/Dialect/SCF/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Tensor/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/BufferizableOpInterfaceImpl.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/OpenMP/OpenMPToLLVMIRTranslation.h"
#include "mlir/Transforms/Passes.h"

using namespace mlir;

void raf::buildCPUPipeline(OpPassManager &pm,
                           const CPUPipelineOptions &options) {
  // Closures become first-order code: lifted to module functions, then
  // specialised per closure and called directly (Reynolds 1972,
  // defunctionalisation).
  // Ops of dialects this pipeline does not lower are named with the
  // conversion they need, before any pass runs.
  pm.addPass(createRAFCheckForeignOps());
  pm.addPass(relay::createRelayLambdaLift());
  pm.addPass(relay::createRelayDefunctionalize());
  // Tuples cross functions, calls and relay.if as their elements.
  pm.addPass(createRAFFlattenTuples());
  // relay -> linalg on tensors. Fusion first, so that each fused group is a
  // private function whose elementwise chain linalg fuses into one loop nest.
  // Inference batch norms become a scale and shift that fuse with the
  // convolution before them (TVM's SimplifyInference).
  pm.addPass(createRAFSimplifyInference());
  if (options.fuse)
    pm.addPass(relay::createRafFuse());
  if (options.shareKernels)
    pm.addPass(relay::createRafShareKernels());
  // Relay's loops are tail-recursive functions: they become scf.while, so
  // that a deep loop does not grow the stack.
  pm.addPass(relay::createRelayTailRecursionToLoops());
  // tcg kernels (operators converted by --convert-relay-to-tcg) first: the
  // relay lowering then sees only relay operators.
  pm.addPass(createConvertTCGToLinalg());
  pm.addPass(createCanonicalizerPass());
  // Collectives (relay.comm.allreduce) become mpi ops on buffers.
  pm.addPass(createRafLowerCollectivesToMPI());
  pm.addPass(createConvertRelayToLinalg());
  pm.addPass(createCanonicalizerPass());
  pm.addNestedPass<func::FuncOp>(createLinalgElementwiseOpFusionPass());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(createCSEPass());
  // Large products go to OpenBLAS first; the smaller ones, and everything
  // when BLAS is off, get the register-blocked code below.
  if (options.blas == CPUBLASMode::On ||
      (options.blas == CPUBLASMode::Auto && isBLASRuntimeBuilt())) {
    RAFContractionsToBLASOptions blas;
    blas.minMacs = options.blasMinMacs;
    blas.threads = std::max<int64_t>(1, options.threads);
    blas.requireRuntime = true;
    pm.addPass(createRAFContractionsToBLAS(blas));
    pm.addPass(createCanonicalizerPass());
  }
  if (options.vectorize) {
    RAFTileAndVectorizeOptions tiling;
    tiling.tileM = options.tileM;
    tiling.tileN = options.tileN;
    pm.addNestedPass<func::FuncOp>(createRAFTileAndVectorize(tiling));
    pm.addPass(createCanonicalizerPass());
  }

  // Tensors -> buffers. Results become caller-allocated out-parameters so
  // that the entry point has a fixed C calling convention.
  bufferization::OneShotBufferizePassOptions bufferize;
  bufferize.bufferizeFunctionBoundaries = true;
  // Loops made from tail recursion yield freshly computed arguments.
  bufferize.allowReturnAllocsFromLoops = true;
  bufferize.functionBoundaryTypeConversion =
      bufferization::LayoutMapOption::IdentityLayoutMap;
  // RAF's InplaceUpdate: a training step's new parameters and states are
  // written into their arguments' buffers and are no longer results.
  pm.addPass(relay::createRafInplaceUpdate());
  // Weight gradients are no longer transposed twice (the convolution's
  // primitive function and the inlined update each had one).
  pm.addPass(createRAFFoldTransposesAcrossCalls());
  pm.addPass(createCanonicalizerPass());
  pm.addPass(bufferization::createOneShotBufferizePass(bufferize));
  pm.addPass(relay::createRafDropInplaceResults());
  pm.addPass(createRAFDistinctReturnBuffers());
  bufferization::BufferResultsToOutParamsPassOptions outParams;
  outParams.hoistStaticAllocs = true;
  outParams.modifyPublicFunctions = true;
  pm.addPass(bufferization::createBufferResultsToOutParamsPass(outParams));
  pm.addPass(createCanonicalizerPass());
  bufferization::buildBufferDeallocationPipeline(pm);
  // A static buffer beyond the allocation limit is an error at the op that
  // needs it, not a failed allocation when the code runs.
  pm.addPass(createRAFCheckAllocations());
  // Padded and strided copies become loops (vectorised), not calls of the
  // element-at-a-time memrefCopy.
  pm.addNestedPass<func::FuncOp>(createRAFStridedCopiesToLoops());
  if (options.vectorize) {
    pm.addNestedPass<func::FuncOp>(createCanonicalizerPass());
    pm.addNestedPass<func::FuncOp>(createRAFHoistVectorTransfers());
    RAFDotProductContractionOptions dotProducts;
    dotProducts.parallel = options.threads > 1;
    pm.addNestedPass<func::FuncOp>(
        createRAFDotProductContraction(dotProducts));
  }

  // What is left in the entry (a training step's optimizer updates) is
  // compiled once per distinct loop, not as part of one huge function.
  if (options.outlineEntryLoops)
    pm.addPass(createRAFOutlineEntryLoops());

  // Buffers -> loops -> LLVM. With threads, loops over parallel dimensions
  // stay scf.parallel; one per nest becomes an OpenMP team.
  if (options.threads > 1) {
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToParallelLoopsPass());
    pm.addNestedPass<func::FuncOp>(createRAFParallelizeLoops());
    ConvertSCFToOpenMPPassOptions openmp;
    openmp.numThreads = options.threads;
    pm.addPass(createConvertSCFToOpenMPPass(openmp));
    // The conversion wraps each loop body in memref.alloca_scope; bodies
    // without stack allocations (all of ours) are inlined again, so the
    // loops inside can become branches.
    pm.addPass(createCanonicalizerPass());
  } else {
    pm.addNestedPass<func::FuncOp>(createConvertLinalgToLoopsPass());
  }
  if (options.vectorize)
    pm.addNestedPass<func::FuncOp>(createConvertVectorToSCFPass(
        VectorTransferToSCFOptions().enableFullUnroll()));
  pm.addPass(createLowerAffinePass());
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  // Before math reaches LLVM: erf and tanh would become libm calls and exp
  // LLVM's `expf`, one scalar call per element.
  if (options.approximateMath)
    pm.addPass(createRAFApproximateMath());
  pm.addPass(createConvertVectorToLLVMPass());
  pm.addPass(createConvertMathToLLVMPass());
  pm.addPass(createConvertMathToLibmPass());
  pm.addPass(createRafConvertMPIToLLVM());
  FinalizeMemRefToLLVMConversionPassOptions memrefToLLVM;
  memrefToLLVM.useGenericFunctions = options.checkedAllocations;
  pm.addPass(createFinalizeMemRefToLLVMConversionPass(memrefToLLVM));
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertIndexToLLVMPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  pm.addPass(createUBToLLVMConversionPass());
  if (!options.entryPrefix.empty()) {
    RAFPrefixEntryPointsOptions prefix;
    prefix.prefix = options.entryPrefix;
    pm.addPass(createRAFPrefixEntryPoints(prefix));
  }
  if (options.emitCInterface) {
    // Every public function gets a C wrapper (`_mlir_ciface_<name>`).
    pm.addPass(createRAFEmitCInterface());
  }
  // After the C interface is requested: this conversion also lowers the
  // functions that hold OpenMP regions.
  if (options.threads > 1)
    pm.addPass(createConvertOpenMPToLLVMPass());
  pm.addPass(createConvertFuncToLLVMPass());
  pm.addPass(createReconcileUnrealizedCastsPass());
  pm.addPass(createCanonicalizerPass());
}

void raf::registerCPUPipeline() {
  registerPassPipelineWithEnumeratedOptions<CPUPipelineOptions>(
      "raf-cpu-pipeline",
      "Lower a relay module to the LLVM dialect for the host CPU: lambda "
      "lifting and defunctionalisation, fusion, relay to linalg, tiling and "
      "vectorisation, one-shot bufferization with results as "
      "out-parameters, then LLVM",
      buildCPUPipeline,
      [](CPUPipelineOptions &options) -> SmallVector<EnumeratedOption> {
        return {{"blas", getEnumOptionValues(options.blas)}};
      });
}

void raf::registerCPUPipelineDialects(DialectRegistry &registry) {
  registry.insert<bufferization::BufferizationDialect, cf::ControlFlowDialect,
                  LLVM::LLVMDialect, omp::OpenMPDialect,
                  vector::VectorDialect>();
  // Modules the pipeline compiles may hold tcg kernels.
  registry.insert<raf::tcg::TCGDialect>();
  arith::registerBufferizableOpInterfaceExternalModels(registry);
  bufferization::func_ext::registerBufferizableOpInterfaceExternalModels(
      registry);
  // --raf-inplace-update inlines the optimizer's update into the step.
  func::registerInlinerExtension(registry);
  linalg::registerBufferizableOpInterfaceExternalModels(registry);
  linalg::registerTilingInterfaceExternalModels(registry);
  // memref.alloc's AllocationOpInterface: without it,
  // --buffer-results-to-out-params cannot turn a returned allocation into
  // the out-parameter and copies every kernel result into it (raf-opt,
  // which registers every extension, did not; raf-run, with only this
  // registry, did).
  memref::registerAllocationOpInterfaceExternalModels(registry);
  scf::registerBufferizableOpInterfaceExternalModels(registry);
  tensor::registerBufferizableOpInterfaceExternalModels(registry);
  vector::registerBufferizableOpInterfaceExternalModels(registry);
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
  registerOpenMPDialectTranslation(registry);
}
