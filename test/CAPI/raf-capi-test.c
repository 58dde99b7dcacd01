/*===- raf-capi-test.c - C program using the RAF-MLIR C API ---------------===*\
|*                                                                            *|
|* Loads the relay dialect through its handle, parses a relay module, runs   *|
|* passes created through the generated C API and a textual pipeline of our  *|
|* passes, and prints the results (test/CAPI/capi.test checks them). With an *|
|* argument, parses that file instead and reports a failed parse.            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "mlir-c/Support.h"
#include "raf-c/Dialects.h"
#include "raf-c/Passes.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kModule =
    "func.func @main(%x: tensor<4x8xf32>, %w: tensor<16x8xf32>) "
    "-> tensor<4x16xf32> {\n"
    "  %0 = relay.nn.dense %x, %w : (tensor<4x8xf32>, tensor<16x8xf32>)\n"
    "  %1 = relay.nn.relu %0 : (tensor<4x16xf32>)\n"
    "  return %1 : tensor<4x16xf32>\n"
    "}\n";

static void printToFile(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

static void printModule(MlirModule module) {
  mlirOperationPrint(mlirModuleGetOperation(module), printToFile, stdout);
  fputc('\n', stdout);
}

static MlirLogicalResult runPipeline(MlirContext context, MlirModule module,
                                     const char *pipeline) {
  MlirPassManager pm = mlirPassManagerCreate(context);
  MlirOpPassManager opm = mlirPassManagerGetAsOpPassManager(pm);
  MlirLogicalResult result = mlirParsePassPipeline(
      opm, mlirStringRefCreateFromCString(pipeline), printToFile, stderr);
  if (mlirLogicalResultIsSuccess(result))
    result = mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  return result;
}

int main(int argc, char **argv) {
  /* Results and diagnostics in the order they happen. */
  setvbuf(stdout, NULL, _IONBF, 0);
  MlirContext context = mlirContextCreate();

  /* A dialect handle loads one dialect. */
  MlirDialectHandle relay = mlirGetDialectHandle__relay__();
  MlirStringRef ns = mlirDialectHandleGetNamespace(relay);
  MlirDialect dialect = mlirDialectHandleLoadDialect(relay, context);
  printf("handle: %.*s, loaded: %d\n", (int)ns.length, ns.data,
         !mlirDialectIsNull(dialect));
  ns = mlirDialectHandleGetNamespace(mlirGetDialectHandle__vta_isa__());
  printf("handle: %.*s\n", (int)ns.length, ns.data);

  /* Everything the passes and pipelines need. */
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  rafRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  rafRegisterAllPasses();

  if (argc > 1) {
    MlirModule bad = mlirModuleCreateParseFromFile(
        context, mlirStringRefCreateFromCString(argv[1]));
    if (mlirModuleIsNull(bad)) {
      printf("parse failed\n");
      mlirContextDestroy(context);
      return 1;
    }
    mlirModuleDestroy(bad);
  }

  MlirModule module =
      mlirModuleCreateParse(context, mlirStringRefCreateFromCString(kModule));
  if (mlirModuleIsNull(module)) {
    printf("parse failed\n");
    return 1;
  }

  /* A pass created through its generated C function. */
  MlirPassManager pm = mlirPassManagerCreate(context);
  mlirPassManagerAddOwnedPass(pm, mlirCreateRelayRafFuse());
  MlirLogicalResult fused =
      mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module));
  mlirPassManagerDestroy(pm);
  printf("raf-fuse: %s\n", mlirLogicalResultIsSuccess(fused) ? "ok" : "failed");
  printModule(module);

  /* A textual pipeline of registered passes. */
  MlirLogicalResult lowered =
      runPipeline(context, module, "builtin.module(convert-relay-to-linalg)");
  printf("convert-relay-to-linalg: %s\n",
         mlirLogicalResultIsSuccess(lowered) ? "ok" : "failed");
  printModule(module);

  /* The whole CPU pipeline, registered by rafRegisterAllPasses. */
  MlirLogicalResult llvm =
      runPipeline(context, module, "builtin.module(raf-cpu-pipeline)");
  printf("raf-cpu-pipeline: %s\n",
         mlirLogicalResultIsSuccess(llvm) ? "ok" : "failed");
  printModule(module);

  /* An unknown pass is an error, not a crash. */
  MlirLogicalResult unknown =
      runPipeline(context, module, "builtin.module(raf-no-such-pass)");
  printf("raf-no-such-pass: %s\n",
         mlirLogicalResultIsSuccess(unknown) ? "ok" : "failed");

  mlirModuleDestroy(module);
  mlirContextDestroy(context);
  return 0;
}
