/*===-- raf-c/Passes.h - C API of the RAF-MLIR passes -------------*- C -*-===*\
|*                                                                            *|
|* Generated per pass, as upstream's C API does:                              *|
|*   mlirCreate<Group><Pass>(), mlirRegister<Group><Pass>() and               *|
|*   mlirRegister<Group>Passes() for the groups Relay, TCG, RAFConversion    *|
|*   and RAFTransforms (e.g. mlirCreateRelayRafFuse,                          *|
|*   mlirCreateRAFConversionConvertRelayToLinalg);                            *|
|* and rafRegisterAllPasses for every pass and pass pipeline, so that         *|
|* mlirParsePassPipeline knows them (docs/ecosystem.md).                      *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef RAF_C_PASSES_H
#define RAF_C_PASSES_H

#include "mlir-c/Pass.h"

#include "raf-c/RAFConversionPasses.capi.h.inc"
#include "raf-c/RAFTransformsPasses.capi.h.inc"
#include "raf-c/RelayPasses.capi.h.inc"
#include "raf-c/TCGPasses.capi.h.inc"

#ifdef __cplusplus
extern "C" {
#endif

/// Registers every RAF-MLIR pass and the pipelines --raf-cpu-pipeline,
/// --relay-grad-pipeline and --raf-training-pipeline with the global pass
/// registry (raf::registerAllPasses). Calling it again does nothing.
MLIR_CAPI_EXPORTED void rafRegisterAllPasses(void);

#ifdef __cplusplus
}
#endif

#endif /* RAF_C_PASSES_H */
