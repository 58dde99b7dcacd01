//===- VTAISAEnums.cpp - vta_isa enums ------------------------------------===//

#include "raf/Dialect/VTAISA/IR/VTAISAOps.h"

using namespace mlir;
using namespace raf::vta_isa;

#include "raf/Dialect/VTAISA/IR/VTAISAEnums.cpp.inc"

// The dialect enums and raf::vta's (ISA.h) share their encodings, so
// converting between them is a cast.
static_assert(uint32_t(MemoryType::Uop) == uint32_t(raf::vta::MemoryType::Uop));
static_assert(uint32_t(MemoryType::Wgt) == uint32_t(raf::vta::MemoryType::Wgt));
static_assert(uint32_t(MemoryType::Inp) == uint32_t(raf::vta::MemoryType::Inp));
static_assert(uint32_t(MemoryType::Acc) == uint32_t(raf::vta::MemoryType::Acc));
static_assert(uint32_t(MemoryType::Out) == uint32_t(raf::vta::MemoryType::Out));
static_assert(uint32_t(MemoryType::Acc8Bit) ==
              uint32_t(raf::vta::MemoryType::Acc8Bit));
static_assert(uint32_t(AluOpcode::Min) == uint32_t(raf::vta::AluOpcode::Min));
static_assert(uint32_t(AluOpcode::Max) == uint32_t(raf::vta::AluOpcode::Max));
static_assert(uint32_t(AluOpcode::Add) == uint32_t(raf::vta::AluOpcode::Add));
static_assert(uint32_t(AluOpcode::Shr) == uint32_t(raf::vta::AluOpcode::Shr));
static_assert(uint32_t(AluOpcode::Mul) == uint32_t(raf::vta::AluOpcode::Mul));
