//===- Dialects.cpp - C API of the RAF-MLIR dialects ----------------------===//

#include "raf-c/Dialects.h"

#include "raf/Dialect/Relay/IR/RelayDialect.h"
#include "raf/Dialect/TCG/IR/TCGDialect.h"
#include "raf/Dialect/VTA/IR/VTADialect.h"
#include "raf/Dialect/VTAISA/IR/VTAISADialect.h"
#include "raf/InitAll.h"

#include "mlir/CAPI/IR.h"
#include "mlir/CAPI/Registration.h"

MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(Relay, relay, raf::relay::RelayDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(TCG, tcg, raf::tcg::TCGDialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(VTA, vta, raf::vta::VTADialect)
MLIR_DEFINE_CAPI_DIALECT_REGISTRATION(VTAISA, vta_isa,
                                      raf::vta_isa::VTAISADialect)

void rafRegisterAllDialects(MlirDialectRegistry registry) {
  raf::registerAllDialects(*unwrap(registry));
}
