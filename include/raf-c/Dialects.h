/*===-- raf-c/Dialects.h - C API of the RAF-MLIR dialects ---------*- C -*-===*\
|*                                                                            *|
|* Dialect handles in the upstream style (mlir-c/Dialect/*.h):                *|
|*                                                                            *|
|*   MlirDialectHandle relay = mlirGetDialectHandle__relay__();               *|
|*   mlirDialectHandleLoadDialect(relay, context);                            *|
|*                                                                            *|
|* and rafRegisterAllDialects, the counterpart of mlirRegisterAllDialects     *|
|* (docs/ecosystem.md).                                                       *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RAF_C_DIALECTS_H
#define RAF_C_DIALECTS_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(Relay, relay);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(TCG, tcg);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(VTA, vta);
MLIR_DECLARE_CAPI_DIALECT_REGISTRATION(VTAISA, vta_isa);

/// Adds the RAF-MLIR dialects to `registry`, with the upstream dialects our
/// passes read and create and the external models our pipelines need
/// (raf::registerAllDialects). A dialect handle alone registers only its
/// dialect: run pipelines in a context built from this registry.
MLIR_CAPI_EXPORTED void rafRegisterAllDialects(MlirDialectRegistry registry);

#ifdef __cplusplus
}
#endif

#endif /* RAF_C_DIALECTS_H */
