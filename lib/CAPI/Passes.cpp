//===- Passes.cpp - C API of the RAF-MLIR passes --------------------------===//

#include "raf-c/Passes.h"

#include "raf/Conversion/Passes.h"
#include "raf/Dialect/Relay/Transforms/Passes.h"
#include "raf/Dialect/TCG/Transforms/Passes.h"
#include "raf/InitAll.h"
#include "raf/Transforms/Passes.h"

#include "mlir/CAPI/Pass.h"

// The generated definitions name the C++ functions without a namespace.
using namespace raf;
using namespace raf::relay;
using namespace raf::tcg;

#ifdef __cplusplus
extern "C" {
#endif

#include "raf-c/RAFConversionPasses.capi.cpp.inc"
#include "raf-c/RAFTransformsPasses.capi.cpp.inc"
#include "raf-c/RelayPasses.capi.cpp.inc"
#include "raf-c/TCGPasses.capi.cpp.inc"

#ifdef __cplusplus
}
#endif

void rafRegisterAllPasses(void) { raf::registerAllPasses(); }
