//===- Checks.h - validity rules of VTA programs ----------------*- C++ -*-===//
//
// The rules a VTA program must follow for a configuration, in one place:
// the vta_isa verifiers, the binary reader and the simulator all call them,
// so IR, binaries and simulated programs are held to the same rules and
// report them with the same messages.
//
// Per instruction: every field fits its encoding; SRAM bases, micro-op
// ranges and transfers stay inside their buffers; the memory type suits
// the opcode; padding only where the hardware pads (INP loads); and
// dependence flags only towards a module's existing neighbours.
// Per program: one FINISH, last; every token FIFO pushed as often as it is
// popped; UOP loads inside the micro-op table; every micro-op a GEMM or ALU
// runs loaded before, and the buffer rows it reaches inside their buffers.
//
//===----------------------------------------------------------------------===//

#ifndef RAF_TARGET_VTA_CHECKS_H
#define RAF_TARGET_VTA_CHECKS_H

#include "raf/Target/VTA/ISA.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace raf::vta {

/// Receives one problem, as a sentence without a trailing period.
using ReportFn = llvm::function_ref<void(const llvm::Twine &message)>;

/// Checks one instruction's fields against a valid `config`. Reports every
/// problem found and returns true if there was none.
bool checkInstruction(const Config &config, const Instruction &insn,
                      ReportFn report);

/// Checks that a micro-op's indices fit its fields for a valid `config`
/// (whether they stay inside the buffers depends on the instruction that
/// runs it; see checkProgramRules).
bool checkUop(const Config &config, const Uop &uop, ReportFn report);

/// Receives a program-level problem and the index of the instruction it
/// concerns (nullopt for the program as a whole).
using ProgramReportFn = llvm::function_ref<void(
    std::optional<size_t> insnIndex, const llvm::Twine &message)>;

/// Checks the rules on the instruction stream as a whole, for a program
/// whose configuration, micro-ops and instructions passed the checks above:
/// FINISH, token balance, UOP loads inside the micro-op table, and the
/// micro-ops each GEMM and ALU runs.
/// The micro-op buffer's contents are known statically because UOP loads,
/// GEMMs and ALU operations all run in order on the compute module.
bool checkProgramRules(const Program &program, ProgramReportFn report);

/// All of the above for `program`, starting with the configuration. Each
/// message names what it concerns: "config: ...", "uop 3: ...",
/// "instruction 7 (gemm): ..." or "program: ...". Empty if valid.
std::vector<std::string> checkProgram(const Program &program);

/// A GEMM that writes an accumulator row again too soon (see
/// findAccDependenceHazard).
struct AccDependenceHazard {
  /// The GEMM instruction.
  size_t insnIndex;
  /// Its micro-op step (counted over iter_out, iter_in and the micro-ops,
  /// the micro-ops innermost) that writes `row` again.
  uint64_t step;
  int64_t row;
  /// Steps since the previous write of `row`.
  uint64_t gap;
};

/// The first GEMM step (resets excluded: they only write) that writes an
/// accumulator row fewer than `distance` steps after the same GEMM last
/// wrote it. The HLS GEMM pipeline (II = 1) reads a row and writes it back
/// a few cycles later, so such a step reads a stale value on the hardware;
/// `distance` is ACC_DEP_DISTANCE (3 in TVM-VTA's configuration). Neither
/// the functional simulator nor checkProgram() models this, as the hazard
/// depends on the pipeline rather than on the ISA. Micro-ops are taken from
/// the table through the UOP loads that precede each GEMM; `program` must
/// pass checkProgram(). Enumerates every step, as a simulation would.
std::optional<AccDependenceHazard>
findAccDependenceHazard(const Program &program, unsigned distance);

} // namespace raf::vta

#endif // RAF_TARGET_VTA_CHECKS_H
