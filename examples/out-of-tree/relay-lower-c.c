/*===- relay-lower-c.c - relay-lower on the RAF-MLIR C API ----------------===*\
|*                                                                            *|
|* relay-lower-c FILE [PIPELINE]: the same as relay-lower, in C.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#include "mlir-c/IR.h"
#include "mlir-c/Pass.h"
#include "raf-c/Dialects.h"
#include "raf-c/Passes.h"

#include <stdio.h>

static void print(MlirStringRef text, void *userData) {
  fwrite(text.data, 1, text.length, (FILE *)userData);
}

int main(int argc, char **argv) {
  if (argc < 2 || argc > 3) {
    fprintf(stderr, "usage: relay-lower-c FILE [PIPELINE]\n");
    return 2;
  }
  MlirContext context = mlirContextCreate();
  MlirDialectRegistry registry = mlirDialectRegistryCreate();
  rafRegisterAllDialects(registry);
  mlirContextAppendDialectRegistry(context, registry);
  mlirDialectRegistryDestroy(registry);
  rafRegisterAllPasses();

  int status = 1;
  MlirModule module = mlirModuleCreateParseFromFile(
      context, mlirStringRefCreateFromCString(argv[1]));
  if (!mlirModuleIsNull(module)) {
    MlirPassManager pm = mlirPassManagerCreate(context);
    const char *pipeline =
        argc == 3 ? argv[2] : "builtin.module(raf-cpu-pipeline)";
    if (mlirLogicalResultIsSuccess(mlirParsePassPipeline(
            mlirPassManagerGetAsOpPassManager(pm),
            mlirStringRefCreateFromCString(pipeline), print, stderr)) &&
        mlirLogicalResultIsSuccess(
            mlirPassManagerRunOnOp(pm, mlirModuleGetOperation(module)))) {
      mlirOperationPrint(mlirModuleGetOperation(module), print, stdout);
      printf("\n");
      status = 0;
    }
    mlirPassManagerDestroy(pm);
    mlirModuleDestroy(module);
  }
  mlirContextDestroy(context);
  return status;
}
